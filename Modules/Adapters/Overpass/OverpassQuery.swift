import Domain
import Foundation

/// Overpass QL for the three questions a place provider answers. Every
/// value put into a query is checked or escaped, so a keyword or category
/// can never change the query's shape.
enum OverpassQuery {
  /// `key=value` with OSM's tag alphabet only.
  static func filter(_ category: String) -> String? {
    let parts = category.split(separator: "=", maxSplits: 1).map(String.init)
    let allowed = { (text: String) in !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_:;-.".contains($0)) } }
    guard parts.count == 2, allowed(parts[0]), allowed(parts[1]) else { return nil }
    return "[\"\(parts[0])\"=\"\(parts[1])\"]"
  }

  static func around(_ point: Coordinate, _ radius: Double) -> String {
    String(format: "(around:%.0f,%.6f,%.6f)", min(max(radius, 1), 50_000), point.latitude, point.longitude)
  }

  static func nearby(_ point: Coordinate, radius: Double, categories: Set<String>, limit: Int) -> String {
    let filters = categories.sorted().compactMap(filter)
    let statements = (filters.isEmpty ? ["[\"name\"]"] : filters.map { $0 + "[\"name\"]" }).map { "nwr\($0)\(around(point, radius));" }
    return "[out:json][timeout:25];(\(statements.joined()));out center tags \(max(1, min(limit * 4, 1000)));"
  }

  /// Names containing the text's first word (case-insensitive regex with
  /// every special character escaped); the rest is filtered after.
  static func search(_ text: String, near: Coordinate?, limit: Int) -> String? {
    guard let word = text.split(separator: " ").map(String.init).max(by: { $0.count < $1.count }), !word.isEmpty else { return nil }
    let escaped = word.prefix(64).map { character -> String in
      if character.isLetter || character.isNumber { return String(character) }
      return "." // any one character: safe, and tolerant of punctuation differences
    }.joined()
    let area = near.map { around($0, 20_000) } ?? ""
    return "[out:json][timeout:25];nwr[\"name\"~\"\(escaped)\",i]\(area);out center tags \(max(1, min(limit * 8, 2000)));"
  }

  /// `osm:node/123` → `node(123);`.
  static func lookup(_ ref: String) -> String? {
    let parts = ref.split(separator: "/")
    guard parts.count == 2, ["osm:node", "osm:way", "osm:relation"].contains(String(parts[0])), let id = UInt64(parts[1]) else { return nil }
    return "[out:json][timeout:25];\(parts[0].dropFirst(4))(\(id));out center tags;"
  }
}
