import Domain
import Foundation

/// Places and lists as a GeoJSON FeatureCollection (RFC 7946): one Point
/// feature per place with a coordinate (its lists by name in
/// `properties.lists`), and the lists themselves as a foreign member.
public enum GeoJSONExport {
  public struct Result: Sendable {
    public let data: Data
    public let places: Int
    /// Places without a coordinate cannot be a GeoJSON point.
    public let withoutCoordinate: Int
  }

  public static func encode(places: [Place], lists: [PlaceList], memberships: Set<Membership>) -> Result {
    let names = Dictionary(lists.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    var listsOf: [PlaceID: [String]] = [:]
    var placesOf: [ListID: [String]] = [:]
    for membership in memberships {
      if let name = names[membership.list] { listsOf[membership.place, default: []].append(name) }
      placesOf[membership.list, default: []].append(membership.place.rawValue)
    }
    var features: [JSONValue] = []
    var missing = 0
    let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
    for place in places.sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
      guard let coordinate = place.coordinate else {
        missing += 1
        continue
      }
      var properties: [String: JSONValue] = [
        "id": .string(place.id.rawValue), "name": .string(place.name), "tags": strings(place.personal.tags),
        "lists": strings((listsOf[place.id] ?? []).sorted()),
      ]
      if !place.personal.note.isEmpty { properties["note"] = .string(place.personal.note) }
      if let address = place.address { properties["address"] = .string(address) }
      if let category = place.provider?.category { properties["category"] = .string(category) }
      if let ref = place.provider?.ref { properties["source"] = .string(ref) }
      features.append(
        .object([
          "type": .string("Feature"), "id": .string(place.id.rawValue),
          "geometry": .object(["type": .string("Point"), "coordinates": .array([.number(coordinate.longitude), .number(coordinate.latitude)])]),
          "properties": .object(properties),
        ]))
    }
    let collection = JSONValue.object([
      "type": .string("FeatureCollection"), "features": .array(features),
      "lists": .array(
        lists.sorted { $0.id.rawValue < $1.id.rawValue }.map { list in
          .object(["id": .string(list.id.rawValue), "name": .string(list.name), "places": strings((placesOf[list.id] ?? []).sorted())])
        }),
    ])
    let data = Data(collection.prettyText.utf8)
    return Result(data: data, places: features.count, withoutCoordinate: missing)
  }
}
