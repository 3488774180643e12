import Domain
import Foundation

/// A JSON file laid over a value's encoded defaults, so the file names only
/// what it changes (`--world`, `--engine`); a key the value does not have
/// is an error naming it and its siblings.
enum JSONOverlay {
  static func decode<T: Codable>(_ data: Data, over defaults: T, source: String, kind: String) throws -> T {
    func refusal(_ message: String) -> ScenarioError { ScenarioError(source: source, message: message, kind: kind) }
    let overrides: [String: JSONValue]
    do {
      guard case .object(let members) = try JSONParser.parse(data) else { throw refusal("not a JSON object") }
      overrides = members
    } catch let failure as JSONParser.Failure {
      throw refusal("not JSON: \(failure)")
    }
    let combined: JSONValue
    do {
      combined = try JSONValue(encoding: defaults).overlaid(with: overrides, path: "")
    } catch let problem as JSONValue.OverlayProblem {
      switch problem {
      case .unknownKey(let path, let known):
        let siblings = known.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
        throw refusal("unknown key '\(path)'; known: \(siblings.joined(separator: ", "))")
      case .wrongType(let path, let expected): throw refusal("'\(path)' must be \(expected)")
      }
    }
    do {
      return try combined.decoded(as: T.self)
    } catch {
      throw refusal("a value has the wrong type: \(error)")
    }
  }

  /// A short hash of every number of a value, printed with each table.
  static func hash<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = (try? encoder.encode(value)) ?? Data()
    return String(FNV1a.hex(FNV1a.hash64(data)).suffix(8))
  }
}
