/// `name` or `name:argument`, as written in config (`file:~/data`, `memory`).
public struct ProviderSpec: Sendable, Equatable, CustomStringConvertible {
  public let name: String
  public let argument: String?

  public init(_ text: String) {
    if let colon = text.firstIndex(of: ":") {
      name = String(text[..<colon])
      let rest = String(text[text.index(after: colon)...])
      argument = rest.isEmpty ? nil : rest
    } else {
      name = text
      argument = nil
    }
  }

  public var description: String { argument.map { "\(name):\($0)" } ?? name }
}
