import Domain
import Foundation
import Providers

/// Overpass JSON (`out center tags`): nodes with `lat`/`lon`, ways and
/// relations with `center`. Elements without a name or a position are not
/// places.
public enum OverpassResponse {
  static let categoryKeys = ["shop", "amenity", "tourism", "leisure", "office", "craft", "healthcare", "public_transport"]

  public static func places(_ data: Data, provider: String) throws -> [ProviderPlace] {
    guard case .object(let root)? = try? JSONParser.parse(data), case .array(let elements)? = root["elements"] else {
      throw ProviderError(provider: provider, reason: "the answer is not Overpass JSON (no \"elements\")")
    }
    return elements.compactMap { element -> ProviderPlace? in
      // An id that is no whole number in Int64's range (1e300, 0.5, NaN) is no OSM element: skipped, never trapped on.
      guard case .object(let object) = element, case .string(let type)? = object["type"], case .number(let number)? = object["id"],
        let id = Int64(exactly: number), case .object(let tags)? = object["tags"], case .string(let name)? = tags["name"]
      else { return nil }
      var position: (Double, Double)?
      if case .number(let lat)? = object["lat"], case .number(let lon)? = object["lon"] {
        position = (lat, lon)
      } else if case .object(let center)? = object["center"], case .number(let lat)? = center["lat"], case .number(let lon)? = center["lon"] {
        position = (lat, lon)
      }
      guard let position, let coordinate = try? Coordinate(latitude: position.0, longitude: position.1) else { return nil }
      func tag(_ key: String) -> String? {
        if case .string(let value)? = tags[key] { return value }
        return nil
      }
      let category = categoryKeys.lazy.compactMap { key in tag(key).map { "\(key)=\($0)" } }.first ?? ""
      let street = [tag("addr:street"), tag("addr:housenumber")].compactMap { $0 }.joined(separator: " ")
      let others = tags.keys.sorted().filter { $0.hasPrefix("name:") || $0 == "alt_name" || $0 == "official_name" }.compactMap(tag)
      return ProviderPlace(
        ref: "osm:\(type)/\(id)", name: name, coordinate: coordinate, category: category, address: street.isEmpty ? nil : street,
        otherNames: others.filter { $0 != name }, openingHours: tag("opening_hours"))
    }
  }
}
