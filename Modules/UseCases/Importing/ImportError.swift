/// Why a file cannot be imported: the file, the line, and what is wrong.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
  public let file: String
  public let line: Int?
  public let message: String

  public init(file: String, line: Int?, message: String) {
    self.file = file
    self.line = line
    self.message = message
  }

  public var description: String { line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)" }
}
