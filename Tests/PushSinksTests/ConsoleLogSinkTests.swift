import Foundation
import Locking
import Notifications
import PushSinks
import Testing
import TestSupport

/// `console`: the reminder and its buttons on the log, and the link behind
/// each button, so a person at a terminal can answer with curl.
@Suite struct ConsoleLogSinkTests {
  final class Log: Sendable {
    let lines = Locked<[String]>([])
    func write(_ event: String, _ fields: [(String, String)]) {
      lines.withLock { $0.append(([event] + fields.map { "\($0.0)=\($0.1)" }).joined(separator: " ")) }
    }
    var text: String { lines.withLock { $0.joined(separator: "\n") } }
  }

  @Test func passesTheSharedSinkSuiteAndLogsTheLinkBehindEachButton() throws {
    let log = Log()
    try NotificationSinkConformance.verify(
      make: { ConsoleLogSink(person: "alice", links: HTTPSinkTests.Links(), log: log.write) }, delivered: { _ in log.text })
    let lines = log.text.split(separator: "\n")
    #expect(lines.contains { $0.hasPrefix("reminder person=alice") })
    #expect(lines.contains { $0.hasPrefix("action-link person=alice label=Mark Done url=https://wh.example.org/actions/") })
  }
}
