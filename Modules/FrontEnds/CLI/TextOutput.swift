import Foundation

/// Where the CLI writes. Injected so tests read exactly what a person sees.
public protocol TextOutput: AnyObject {
  /// Writes a line to standard output.
  func out(_ line: String)
  /// Writes a line to standard error.
  func err(_ line: String)
  /// Whether standard output is a terminal (colour is only used there).
  var isTerminal: Bool { get }
}

public final class StandardOutput: TextOutput {
  public init() {}
  public func out(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
  public func err(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
  public var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}

/// Collects output in memory, for tests.
public final class BufferedOutput: TextOutput {
  public private(set) var stdout = ""
  public private(set) var stderr = ""
  public var isTerminal: Bool

  public init(isTerminal: Bool = false) { self.isTerminal = isTerminal }
  public func out(_ line: String) { stdout += line + "\n" }
  public func err(_ line: String) { stderr += line + "\n" }
}
