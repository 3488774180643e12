import Foundation

extension JSONValue {
  /// An object's members; nil for any other value.
  public var members: [String: JSONValue]? {
    if case .object(let members) = self { return members }
    return nil
  }

  /// Why one object could not be laid over another: a key the base does
  /// not have, or a value of another type than the base's, by its path.
  public enum OverlayProblem: Error, Equatable, Sendable {
    case unknownKey(path: String, known: [String])
    case wrongType(path: String, expected: String)
  }

  /// This object with `top`'s members laid over it: objects merge member
  /// by member, any other value replaces one of the same type (an array
  /// replaces an array whole). `path` prefixes the keys named in problems
  /// ("arrival" → "arrival.session.allowance").
  public func overlaid(with top: [String: JSONValue], path: String) throws(OverlayProblem) -> JSONValue {
    guard case .object(var members) = self else { throw .wrongType(path: path, expected: typeName) }
    let prefix = path.isEmpty ? "" : path + "."
    for (key, value) in top {
      let full = prefix + key
      guard let existing = members[key] else { throw .unknownKey(path: full, known: members.keys.sorted().map { prefix + $0 }) }
      switch (existing, value) {
      case (.object, .object(let inner)): members[key] = try existing.overlaid(with: inner, path: full)
      case (.bool, .bool), (.number, .number), (.string, .string), (.array, .array), (.null, _): members[key] = value
      default: throw .wrongType(path: full, expected: existing.typeName)
      }
    }
    return .object(members)
  }

  /// A value's JSON form as the project's own encoder writes it.
  public init(encoding value: some Encodable) throws {
    self = try JSONParser.parse(JSONEncoder().encode(value))
  }

  /// This value decoded as `T`, as if it had been read from its text.
  public func decoded<T: Decodable>(as type: T.Type) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(compactText.utf8))
  }
}
