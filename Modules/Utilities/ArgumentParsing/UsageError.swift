/// The command line itself is wrong; the message says how, and the command
/// path lets the front end point at the right `--help`.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  public let message: String
  public let commandPath: [String]

  public init(_ message: String, commandPath: [String]) {
    self.message = message
    self.commandPath = commandPath
  }

  public var description: String { message }
}
