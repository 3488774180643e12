/// A command of a command tree: its options, its positional arguments, its
/// subcommands, and what to run. `P` is what a run receives besides the
/// parsed arguments (the CLI's context).
public struct CommandSpec<Context>: Sendable {
  public typealias Action = @Sendable (ParsedArguments, Context) throws -> Void

  public let name: String
  public let summary: String
  public let positionals: [(name: String, help: String)]
  /// The last positional takes every remaining argument.
  public let variadicTail: Bool
  public let minimumPositionals: Int
  public let options: [OptionSpec]
  public let subcommands: [CommandSpec]
  public let discussion: String
  public let action: Action?
  /// Other words people type for this command ("snooze" for `later`):
  /// not run, but answered with the command's name.
  public let aliases: [String]

  public init(
    _ name: String, _ summary: String, positionals: [(name: String, help: String)] = [],
    required: Int? = nil, variadicTail: Bool = false, options: [OptionSpec] = [],
    subcommands: [CommandSpec] = [], discussion: String = "", aliases: [String] = [], action: Action? = nil
  ) {
    self.name = name
    self.summary = summary
    self.positionals = positionals
    self.minimumPositionals = required ?? positionals.count
    self.variadicTail = variadicTail
    self.options = options
    self.subcommands = subcommands
    self.discussion = discussion
    self.action = action
    self.aliases = aliases
  }
}
