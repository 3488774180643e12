/// One `--name` option: a flag, or one that takes a value (`--radius 150`
/// or `--radius=150`), possibly repeated.
public struct OptionSpec: Sendable {
  public enum Kind: Sendable, Equatable {
    case flag
    case value(placeholder: String)
  }

  public let name: String
  public let short: Character?
  public let kind: Kind
  public let repeatable: Bool
  public let help: String

  public static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, kind: .flag, repeatable: false, help: help)
  }

  public static func value(
    _ name: String, _ placeholder: String, short: Character? = nil, repeatable: Bool = false, _ help: String
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, kind: .value(placeholder: placeholder), repeatable: repeatable, help: help)
  }
}
