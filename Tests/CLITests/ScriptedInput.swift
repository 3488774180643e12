import Foundation

/// Lines typed at a question, one per call, then nil (end of input).
final class ScriptedInput: @unchecked Sendable {
  private var lines: [String]
  private let lock = NSLock()

  init(_ lines: [String]) { self.lines = lines }

  func next() -> String? {
    lock.withLock { lines.isEmpty ? nil : lines.removeFirst() }
  }
}
