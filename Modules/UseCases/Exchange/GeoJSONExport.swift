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
    var features: [[String: Any]] = []
    var missing = 0
    for place in places.sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
      guard let coordinate = place.coordinate else {
        missing += 1
        continue
      }
      var properties: [String: Any] = [
        "id": place.id.rawValue, "name": place.name, "tags": place.personal.tags, "lists": (listsOf[place.id] ?? []).sorted(),
      ]
      if !place.personal.note.isEmpty { properties["note"] = place.personal.note }
      if let address = place.address { properties["address"] = address }
      if let category = place.provider?.category { properties["category"] = category }
      if let ref = place.provider?.ref { properties["source"] = ref }
      features.append([
        "type": "Feature", "id": place.id.rawValue,
        "geometry": ["type": "Point", "coordinates": [coordinate.longitude, coordinate.latitude]], "properties": properties,
      ])
    }
    let collection: [String: Any] = [
      "type": "FeatureCollection", "features": features,
      "lists": lists.sorted { $0.id.rawValue < $1.id.rawValue }.map { list in
        ["id": list.id.rawValue, "name": list.name, "places": (placesOf[list.id] ?? []).sorted()] as [String: Any]
      },
    ]
    let data = (try? JSONSerialization.data(withJSONObject: collection, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return Result(data: data, places: features.count, withoutCoordinate: missing)
  }
}
