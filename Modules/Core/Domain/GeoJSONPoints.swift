import Foundation

/// The points of a GeoJSON FeatureCollection, read one way for every use
/// (the `osm-geojson` place data and imported lists), so the two cannot
/// disagree on what a file holds. A Point whose position is malformed (cut
/// short, not numbers, out of range) refuses the file, naming the feature
/// by its index in `features`; another geometry is an entry that is not a
/// point, for the caller to count or leave out.
public enum GeoJSONPoints {
  public struct Feature: Equatable, Sendable {
    /// Its index in the file's `features` list (0-based, as `jq .features[N]`).
    public let index: Int
    /// The feature's own `id`, when it is a string.
    public let id: String?
    public let coordinate: Coordinate
    /// The string-valued properties, keys as written.
    public let properties: [String: String]
  }

  public enum Entry: Equatable, Sendable {
    case point(Feature)
    /// Another geometry, or none: the index.
    case notAPoint(Int)
  }

  public struct Failure: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
  }

  public static func read(_ data: Data) throws(Failure) -> [Entry] {
    let root: JSONValue
    do {
      root = try JSONParser.parse(data, maxDepth: 32)
    } catch {
      throw Failure(message: "not JSON: \(error)")
    }
    return try read(root)
  }

  /// The same, from JSON already parsed (a reader that looked at it first).
  public static func read(_ root: JSONValue) throws(Failure) -> [Entry] {
    guard case .object(let collection) = root, case .array(let features)? = collection["features"] else {
      throw Failure(message: "not a GeoJSON FeatureCollection (no \"features\" list)")
    }
    var entries: [Entry] = []
    entries.reserveCapacity(features.count)
    for (index, feature) in features.enumerated() {
      guard case .object(let object) = feature, case .object(let geometry)? = object["geometry"], case .string("Point")? = geometry["type"] else {
        entries.append(.notAPoint(index))
        continue
      }
      guard case .array(let position)? = geometry["coordinates"], position.count >= 2, case .number(let longitude) = position[0],
        case .number(let latitude) = position[1], let coordinate = try? Coordinate(latitude: latitude, longitude: longitude)
      else { throw Failure(message: "feature \(index): coordinates must be [longitude, latitude] within range") }
      var properties: [String: String] = [:]
      if case .object(let raw)? = object["properties"] {
        for (key, value) in raw { if case .string(let text) = value { properties[key] = text } }
      }
      let id: String? = if case .string(let text)? = object["id"] { text } else { nil }
      entries.append(.point(Feature(index: index, id: id, coordinate: coordinate, properties: properties)))
    }
    return entries
  }
}
