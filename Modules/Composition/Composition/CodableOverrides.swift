import Domain
import Foundation

/// Lays a config file's object over a value's encoded defaults, so the file
/// names only what it changes; a key the value does not have is an error
/// naming its full path.
enum CodableOverrides {
  static func apply<T: Codable>(_ overrides: [String: JSONValue], to defaults: T, key: String, source: String) throws -> T {
    let base = try JSONSerialization.jsonObject(with: JSONEncoder().encode(defaults)) as! [String: Any]
    func merge(_ base: [String: Any], _ top: [String: JSONValue], path: String) throws -> [String: Any] {
      var result = base
      for (name, value) in top {
        let full = path + "." + name
        guard let existing = base[name] else {
          throw ConfigError.unknownKey(source: source, key: full, known: base.keys.sorted().map { path + "." + $0 })
        }
        if let nested = existing as? [String: Any] {
          guard case .object(let inner) = value else {
            throw ConfigError.wrongType(source: source, key: full, expected: "an object")
          }
          result[name] = try merge(nested, inner, path: full)
        } else {
          switch (existing, value) {
          case (is Bool, .bool), (is NSNumber, .number), (is String, .string): result[name] = value.foundation
          default:
            throw ConfigError.wrongType(source: source, key: full, expected: existing is Bool ? "true or false" : existing is String ? "a string" : "a number")
          }
        }
      }
      return result
    }
    let merged = try merge(base, overrides, path: key)
    do {
      return try JSONDecoder().decodeOutside(T.self, from: JSONSerialization.data(withJSONObject: merged))
    } catch {
      throw ConfigError.invalidValue(source: source, key: key, value: "…", allowed: "\(error)")
    }
  }
}
