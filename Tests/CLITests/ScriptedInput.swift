import Foundation
import Synchronization

/// Lines typed at a question, one per call, then nil (end of input).
final class ScriptedInput: Sendable {
  private let lines: Mutex<[String]>

  init(_ lines: [String]) { self.lines = Mutex(lines) }

  func next() -> String? {
    lines.withLock { $0.isEmpty ? nil : $0.removeFirst() }
  }
}
