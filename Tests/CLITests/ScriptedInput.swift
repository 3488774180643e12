import Foundation
import Locking

/// Lines typed at a question, one per call, then nil (end of input).
final class ScriptedInput: Sendable {
  private let lines: Locked<[String]>

  init(_ lines: [String]) { self.lines = Locked(lines) }

  func next() -> String? {
    lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
  }
}
