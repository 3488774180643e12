import Domain
import Foundation

/// Google Takeout starred places (`Saved Places.json`), in the old layout
/// (`properties.Title`, `properties.Location."Business Name"`, `Address`) and
/// the new one (`properties.location.name`, `address`). A place Google has
/// no data for has coordinates [0, 0]: it is kept, without a position.
enum SavedPlaces {
  static func parse(_ data: Data, file: String, name: String) throws -> TakeoutList {
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let features = root["features"] as? [Any] else {
      throw ImportError(file: file, line: nil, message: "not a starred-places GeoJSON FeatureCollection")
    }
    var rows: [TakeoutList.Row] = []
    for (index, item) in features.enumerated() {
      guard let feature = item as? [String: Any], let properties = feature["properties"] as? [String: Any] else {
        throw ImportError(file: file, line: nil, message: "feature \(index) is not an object with properties")
      }
      let old = properties["Location"] as? [String: Any]
      let new = properties["location"] as? [String: Any]
      let url = (properties["Google Maps URL"] as? String) ?? (properties["google_maps_url"] as? String) ?? ""
      // An entry Google has no data for may name itself only in its URL (?q=…).
      let named = (properties["Title"] as? String) ?? (new?["name"] as? String) ?? (old?["Business Name"] as? String)
        ?? (old?["Address"] as? String) ?? (new?["address"] as? String) ?? query(url)
      let title = named?.trimmingCharacters(in: .whitespaces).isEmpty == false ? named! : "Saved place \(index + 1) (no name)"
      var coordinate: Coordinate?
      if let point = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double], point.count >= 2, point[0] != 0 || point[1] != 0 {
        guard let valid = try? Coordinate(latitude: point[1], longitude: point[0]) else {
          throw ImportError(file: file, line: nil, message: "feature \(index) ('\(title)') has coordinates out of range")
        }
        coordinate = valid
      }
      rows.append(
        TakeoutList.Row(
          number: index + 1, line: index, title: title, note: properties["Comment"] as? String ?? "", url: url,
          coordinate: coordinate, address: (old?["Address"] as? String) ?? (new?["address"] as? String)))
    }
    return TakeoutList(name: name, description: nil, rows: rows)
  }

  /// The `q=` of a Maps URL when it is words, not a `lat,lon`.
  static func query(_ url: String) -> String? {
    guard let components = URLComponents(string: url),
      let q = components.queryItems?.first(where: { $0.name == "q" })?.value, !q.isEmpty
    else { return nil }
    return Coordinate.looksLikeCoordinate(q) ? nil : q
  }
}
