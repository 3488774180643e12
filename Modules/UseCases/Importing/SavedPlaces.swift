import Domain
import Foundation

/// Google Takeout starred places (`Saved Places.json`), in the old layout
/// (`properties.Title`, `properties.Location."Business Name"`, `Address`) and
/// the new one (`properties.location.name`, `address`); a `.json` file none
/// of whose features carries Google's keys is read as plain GeoJSON
/// (`GeoJSONPlaces`). A place Google has
/// no data for has coordinates [0, 0]: it is kept, without a position.
/// Outside JSON, so read with the project's parser (depth-bounded, exact
/// offsets in its errors), not JSONSerialization.
enum SavedPlaces {
  static func parse(_ data: Data, file: String, name: String) throws -> TakeoutList {
    let root: JSONValue
    do {
      root = try JSONParser.parse(data, maxDepth: 32)
    } catch {
      throw ImportError(file: file, line: nil, message: "not JSON: \(error)")
    }
    guard case .object(let collection) = root, case .array(let features)? = collection["features"] else {
      throw ImportError(file: file, line: nil, message: "not a starred-places GeoJSON FeatureCollection")
    }
    // A GeoJSON file saved as .json (by `whilehere export geojson` or
    // another tool) names its places in `name`, which Google never writes:
    // read as the GeoJSON it is, its places keep their names.
    if !features.isEmpty, !features.contains(where: isGoogleFeature) { return try GeoJSONPlaces.parse(root, file: file, name: name) }
    var rows: [TakeoutList.Row] = []
    for (index, item) in features.enumerated() {
      guard case .object(let feature) = item, case .object(let properties)? = feature["properties"] else {
        throw ImportError(file: file, line: nil, message: "feature \(index) is not an object with properties")
      }
      let old = object(properties["Location"])
      let new = object(properties["location"])
      let url = properties["Google Maps URL"]?.stringValue ?? properties["google_maps_url"]?.stringValue ?? ""
      let address = old["Address"]?.stringValue ?? new["address"]?.stringValue
      // An entry Google has no data for may name itself only in its URL (?q=…).
      let named = properties["Title"]?.stringValue ?? new["name"]?.stringValue ?? old["Business Name"]?.stringValue ?? address ?? query(url)
      let title = named?.trimmingCharacters(in: .whitespaces).isEmpty == false ? named! : "Saved place \(index + 1) (no name)"
      var coordinate: Coordinate?
      if case .object(let geometry)? = feature["geometry"], case .array(let point)? = geometry["coordinates"], point.count >= 2,
        case .number(let longitude) = point[0], case .number(let latitude) = point[1], longitude != 0 || latitude != 0
      {
        guard let valid = try? Coordinate(latitude: latitude, longitude: longitude) else {
          throw ImportError(file: file, line: nil, message: "feature \(index) ('\(title)') has coordinates out of range")
        }
        coordinate = valid
      }
      rows.append(
        TakeoutList.Row(
          number: index + 1, line: index, title: title, note: properties["Comment"]?.stringValue ?? "", url: url, coordinate: coordinate,
          address: address))
    }
    return TakeoutList(name: name, description: nil, rows: rows)
  }


  /// Keys only Google's layouts (old or new) put in a feature's properties.
  static let googleKeys = ["Title", "Location", "location", "Google Maps URL", "google_maps_url"]

  static func isGoogleFeature(_ feature: JSONValue) -> Bool {
    guard case .object(let feature) = feature, case .object(let properties)? = feature["properties"] else { return true }
    return googleKeys.contains { properties[$0] != nil }
  }

  static func object(_ value: JSONValue?) -> [String: JSONValue] {
    if case .object(let object)? = value { return object }
    return [:]
  }

  /// The `q=` of a Maps URL when it is words, not a `lat,lon`.
  static func query(_ url: String) -> String? {
    guard let components = URLComponents(string: url),
      let q = components.queryItems?.first(where: { $0.name == "q" })?.value, !q.isEmpty
    else { return nil }
    return Coordinate.looksLikeCoordinate(q) ? nil : q
  }
}
