/// A configuration problem, named precisely enough to fix without reading code.
public enum ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case invalidJSON(path: String, reason: String)
  case unknownKey(source: String, key: String, known: [String])
  case wrongType(source: String, key: String, expected: String)
  case invalidValue(source: String, key: String, value: String, allowed: String)
  case unknownProvider(port: String, name: String, known: [String])

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "cannot read config file \(path): \(reason)"
    case .invalidJSON(let path, let reason):
      return "config file \(path) is not valid JSON: \(reason)"
    case .unknownKey(let source, let key, let known):
      let hint = Suggestion.closest(to: key, in: known).map { " (did you mean '\($0)'?)" } ?? ""
      return "\(source): unknown key '\(key)'\(hint); known keys: \(known.joined(separator: ", "))"
    case .wrongType(let source, let key, let expected):
      return "\(source): '\(key)' must be \(expected)"
    case .invalidValue(let source, let key, let value, let allowed):
      return "\(source): '\(key)' has invalid value '\(value)' (\(allowed))"
    case .unknownProvider(let port, let name, let known):
      let hint = Suggestion.closest(to: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
      return "unknown \(port) provider '\(name)'\(hint); known: \(known.joined(separator: ", "))"
    }
  }
}
