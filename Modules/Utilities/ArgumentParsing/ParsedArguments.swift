/// The result of parsing: options in the order given (so `--at A --radius 1
/// --at B --radius 2` can be paired), and positionals.
public struct ParsedArguments: Sendable, Equatable {
  public var commandPath: [String]
  public var options: [(name: String, value: String?)]
  public var positionals: [String]

  public init(commandPath: [String] = [], options: [(name: String, value: String?)] = [], positionals: [String] = []) {
    self.commandPath = commandPath
    self.options = options
    self.positionals = positionals
  }

  public static func == (a: Self, b: Self) -> Bool {
    a.commandPath == b.commandPath && a.positionals == b.positionals
      && a.options.map { "\($0.name)=\($0.value ?? "")" } == b.options.map { "\($0.name)=\($0.value ?? "")" }
  }

  public func has(_ name: String) -> Bool { options.contains { $0.name == name } }

  /// The last value given for `name`.
  public func value(_ name: String) -> String? { options.last { $0.name == name }?.value }

  public func values(_ name: String) -> [String] { options.filter { $0.name == name }.compactMap(\.value) }

  public func positional(_ index: Int) -> String? { index < positionals.count ? positionals[index] : nil }
}
