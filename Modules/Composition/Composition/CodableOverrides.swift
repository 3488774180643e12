import Domain
import Foundation

/// Lays a config file's object over a value's encoded defaults, so the file
/// names only what it changes; a key the value does not have is an error
/// naming its full path.
enum CodableOverrides {
  static func apply<T: Codable>(_ overrides: [String: JSONValue], to defaults: T, key: String, source: String) throws -> T {
    let merged: JSONValue
    do {
      merged = try JSONValue(encoding: defaults).overlaid(with: overrides, path: key)
    } catch let problem as JSONValue.OverlayProblem {
      switch problem {
      case .unknownKey(let path, let known): throw ConfigError.unknownKey(source: source, key: path, known: known)
      case .wrongType(let path, let expected):
        throw ConfigError.wrongType(source: source, key: path, expected: expected == "a boolean" ? "true or false" : expected)
      }
    }
    do {
      return try merged.decoded(as: T.self)
    } catch {
      throw ConfigError.invalidValue(source: source, key: key, value: "…", allowed: "\(error)")
    }
  }
}
