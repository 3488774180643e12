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

  /// The places of a GeoJSON document (`source` names it in errors): its
  /// named points (`GeoJSONPoints`, the same reader imports use).
  public static func parse(_ data: Data, source: String) throws -> [ProviderPlace] {
    let entries: [GeoJSONPoints.Entry]
    do {
      entries = try GeoJSONPoints.read(data)
    } catch {
      throw ProviderError(provider: "osm-geojson:\(source)", reason: error.message)
    }
    var places: [ProviderPlace] = []
    places.reserveCapacity(entries.count)
    for case .point(let feature) in entries {
      let properties = feature.properties
      guard let name = properties["name"], !name.isEmpty else { continue }
      let id = properties["id"] ?? feature.id ?? "feature/\(feature.index + 1)"
      var address = properties["address"]
      if address == nil, let street = properties["addr:street"] {
        address = [street, properties["addr:housenumber"]].compactMap { $0 }.joined(separator: " ")
      }
      let others = ["name:en", "name:fi", "name:sv", "alt_name", "official_name", "short_name", "old_name"]
        .compactMap { properties[$0] }.filter { $0 != name }
      places.append(
        ProviderPlace(
          ref: "osm:" + id, name: name, coordinate: feature.coordinate, category: properties["category"] ?? "", address: address,
          otherNames: others, openingHours: properties["opening_hours"]))
    }
    return places
  }
}
