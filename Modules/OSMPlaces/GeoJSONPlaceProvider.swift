import Domain
import Foundation
import Providers

/// The `osm-geojson:PATH` provider (the embedded default): a GeoJSON
/// FeatureCollection of named points with `category` (`shop=supermarket`)
/// and optional address, other-name and `opening_hours` properties, as
/// ../shared/data/helsinki-pois.geojson.
/// With no path it uses the central-Helsinki places shipped in the package
/// (OpenStreetMap, © OpenStreetMap contributors, ODbL 1.0).
public enum GeoJSONPlaceProvider {
  public static func load(path: String?) throws -> InMemoryPlaceProvider {
    let url: URL
    if let path {
      url = URL(fileURLWithPath: path)
    } else {
      guard let embedded = Bundle.module.url(forResource: "helsinki-places", withExtension: "geojson") else {
        throw ProviderError(provider: "osm-geojson", reason: "the embedded places file is missing from this build; give osm-geojson:PATH")
      }
      url = embedded
    }
    guard let data = try? Data(contentsOf: url) else {
      throw ProviderError(provider: "osm-geojson:\(url.path)", reason: "cannot read the file")
    }
    return InMemoryPlaceProvider(name: "osm-geojson:" + (path ?? "(embedded central Helsinki)"), places: try parse(data, source: url.path))
  }

  /// The places of a GeoJSON document (`source` names it in errors).
  public static func parse(_ data: Data, source: String) throws -> [ProviderPlace] {
    guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let features = root["features"] as? [[String: Any]] else {
      throw ProviderError(provider: "osm-geojson:\(source)", reason: "not a GeoJSON FeatureCollection")
    }
    var places: [ProviderPlace] = []
    places.reserveCapacity(features.count)
    for (number, feature) in features.enumerated() {
      guard let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "Point" else { continue }
      let properties = feature["properties"] as? [String: Any] ?? [:]
      guard let name = properties["name"] as? String, !name.isEmpty else { continue }
      guard let point = geometry["coordinates"] as? [Double], point.count >= 2,
        let coordinate = try? Coordinate(latitude: point[1], longitude: point[0])
      else {
        throw ProviderError(provider: "osm-geojson:\(source)", reason: "feature \(number + 1) ('\(name)') has no valid [lon, lat]")
      }
      let id = properties["id"] as? String ?? feature["id"] as? String ?? "feature/\(number + 1)"
      var address = properties["address"] as? String
      if address == nil, let street = properties["addr:street"] as? String {
        address = [street, properties["addr:housenumber"] as? String].compactMap { $0 }.joined(separator: " ")
      }
      let others = ["name:en", "name:fi", "name:sv", "alt_name", "official_name", "short_name", "old_name"]
        .compactMap { properties[$0] as? String }.filter { $0 != name }
      places.append(
        ProviderPlace(
          ref: "osm:" + id, name: name, coordinate: coordinate, category: properties["category"] as? String ?? "", address: address,
          otherNames: others, openingHours: properties["opening_hours"] as? String))
    }
    return places
  }
}
