import Domain
import Foundation

/// Any GeoJSON FeatureCollection of points (what `whilehere export geojson`
/// and many tools write): the name from `name`/`title` (any case), the note
/// from `note`/`description`. One rule for every format: a place that is
/// malformed (a position cut short or out of range) refuses the file,
/// naming it; an entry that is not a place (another geometry, no name) is
/// left out and counted in `skipped`.
enum GeoJSONPlaces {
  static func parse(_ data: Data, file: String, name: String) throws -> TakeoutList {
    let root: JSONValue
    do {
      root = try JSONParser.parse(data, maxDepth: 32)
    } catch {
      throw ImportError(file: file, line: nil, message: "not JSON: \(error)")
    }
    guard case .object(let collection) = root, case .array(let features)? = collection["features"] else {
      throw ImportError(file: file, line: nil, message: "not a GeoJSON FeatureCollection (no \"features\" list)")
    }
    var rows: [TakeoutList.Row] = []
    var skipped: [String] = []
    for (index, feature) in features.enumerated() {
      guard case .object(let object) = feature, case .object(let geometry)? = object["geometry"], case .string("Point")? = geometry["type"] else {
        skipped.append("feature \(index): not a point")
        continue
      }
      guard case .array(let position)? = geometry["coordinates"], position.count >= 2, case .number(let lon) = position[0], case .number(let lat) = position[1],
        let coordinate = try? Coordinate(latitude: lat, longitude: lon)
      else { throw ImportError(file: file, line: nil, message: "feature \(index): coordinates must be [longitude, latitude] within range") }
      var properties: [String: String] = [:]
      if case .object(let raw)? = object["properties"] {
        for (key, value) in raw { if case .string(let text) = value { properties[key.lowercased()] = text } }
      }
      guard let title = properties["name"] ?? properties["title"], !title.isEmpty else {
        skipped.append("feature \(index): no name")
        continue
      }
      rows.append(
        TakeoutList.Row(
          number: rows.count + 1, line: index + 1, title: title, note: properties["note"] ?? properties["description"] ?? "", url: "",
          coordinate: coordinate, address: properties["address"]))
    }
    var list = TakeoutList(name: name, description: nil, rows: rows)
    list.skipped = skipped
    return list
  }
}
