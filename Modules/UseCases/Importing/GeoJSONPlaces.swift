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
    try parse(file: file, name: name) { () throws(GeoJSONPoints.Failure) in try GeoJSONPoints.read(data) }
  }

  /// From JSON already parsed (`SavedPlaces` looked at it first).
  static func parse(_ root: JSONValue, file: String, name: String) throws -> TakeoutList {
    try parse(file: file, name: name) { () throws(GeoJSONPoints.Failure) in try GeoJSONPoints.read(root) }
  }

  private static func parse(
    file: String, name: String, _ read: () throws(GeoJSONPoints.Failure) -> [GeoJSONPoints.Entry]
  ) throws -> TakeoutList {
    let entries: [GeoJSONPoints.Entry]
    do {
      entries = try read()
    } catch {
      throw ImportError(file: file, line: nil, message: error.message)
    }
    var rows: [TakeoutList.Row] = []
    var skipped: [String] = []
    for entry in entries {
      guard case .point(let feature) = entry else {
        if case .notAPoint(let index) = entry { skipped.append("feature \(index): not a point") }
        continue
      }
      let properties = Dictionary(feature.properties.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
      guard let title = properties["name"] ?? properties["title"], !title.isEmpty else {
        skipped.append("feature \(feature.index): no name")
        continue
      }
      rows.append(
        TakeoutList.Row(
          number: rows.count + 1, line: feature.index + 1, title: title, note: properties["note"] ?? properties["description"] ?? "", url: "",
          coordinate: feature.coordinate, address: properties["address"]))
    }
    var list = TakeoutList(name: name, description: nil, rows: rows)
    list.skipped = skipped
    return list
  }
}
