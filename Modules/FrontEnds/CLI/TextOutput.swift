import Foundation

/// Where the CLI writes. Injected so tests read exactly what a person sees.
public protocol TextOutput: AnyObject {
  /// Writes a line to standard output.
  func out(_ line: String)
  /// Writes a line to standard error.
  func err(_ line: String)
  /// Whether standard output is a terminal (colour is only used there).
  var isTerminal: Bool { get }
  /// Writes many lines to standard output, as `out` would one by one.
  func out(lines: [String])
  /// Writes UTF-8 text made of whole lines, each ending in a newline, to
  /// standard output, as `out` would each line.
  func out(text: [UInt8])
}

extension TextOutput {
  public func out(lines: [String]) { lines.forEach(out) }

  public func out(text: [UInt8]) {
    guard !text.isEmpty else { return }
    out(String(decoding: text.last == UInt8(ascii: "\n") ? text.dropLast() : text[...], as: UTF8.self))
  }
}

/// The process's standard output and error (or, for a test, other files).
public final class StandardOutput: TextOutput {
  private let output: FileHandle
  private let error: FileHandle

  public init(output: FileHandle = .standardOutput, error: FileHandle = .standardError) {
    self.output = output
    self.error = error
  }

  public func out(_ line: String) { output.write(Data((line + "\n").utf8)) }
  public func err(_ line: String) { error.write(Data((line + "\n").utf8)) }
  public var isTerminal: Bool { isatty(output.fileDescriptor) == 1 }

  /// In writes of about 64 KiB: a listing of 30,000 lines made as many
  /// system calls, a tenth of `task list`'s time.
  public func out(lines: [String]) {
    var chunk: [UInt8] = []
    chunk.reserveCapacity(Self.chunkBytes + 4096)
    for line in lines {
      chunk.append(contentsOf: line.utf8)
      chunk.append(UInt8(ascii: "\n"))
      if chunk.count >= Self.chunkBytes {
        output.write(Data(chunk))
        chunk.removeAll(keepingCapacity: true)
      }
    }
    if !chunk.isEmpty { output.write(Data(chunk)) }
  }

  public func out(text: [UInt8]) {
    var start = 0
    while start < text.count {
      let end = min(text.count, start + Self.chunkBytes)
      text.withUnsafeBytes { output.write(Data(UnsafeRawBufferPointer(rebasing: $0[start..<end]))) }
      start = end
    }
  }

  static let chunkBytes = 64 * 1024
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
