import Composition
@testable import Daemon
import Domain
import Foundation
import Gateway
import Testing
import TestSupport

/// Across a restart (or a worker taking a person over) whilehered knows
/// which visits were reminded from what it wrote when they fired, not
/// from where the last fix was: a fix journalled whose step did not fire
/// (an outlier, a crash between the journal and the step) is not taken
/// for a reminder already shown.
@Suite struct RestartVisitTests {
  static let milk = #"{"title":"Buy milk","locations":[{"at":"60.1699,24.9384","radius":100}]}"#

  static func post(_ server: DirectHTTPServer, latitude: Double, longitude: Double, at runtime: Runtime) {
    let tst = Int(runtime.clock.now().timeIntervalSince1970)
    let report = #"{"_type":"location","lat":\#(latitude),"lon":\#(longitude),"tst":\#(tst),"acc":10}"#
    let answer = server.send(HTTPRequest(method: "POST", path: "/owntracks", headers: ReminderOutboxDaemonTests.authorization, body: Data(report.utf8)))
    #expect(answer?.status == 200)
  }

  static func advance(_ runtime: Runtime, by seconds: TimeInterval) { (runtime.clock as? ManualClock)?.advance(by: seconds) }

  @Test func aJournalledFixThatFiredNothingIsNotTakenAsRemindedAfterARestart() throws {
    let directory = TemporaryDirectory()
    let first = HeldNotificationSink(name: "held")
    try ReminderOutboxDaemonTests.start(directory, sink: first) { _, server, runtime in
      let made = server.send(HTTPRequest(method: "POST", path: "/api/v1/tasks", headers: ReminderOutboxDaemonTests.authorization, body: Data(Self.milk.utf8)))
      #expect(made?.status == 201)
      Self.post(server, latitude: 60.1699, longitude: 24.90, at: runtime)
      Self.advance(runtime, by: 2)
      // 2 km in 2 s: an outlier to the engine, journalled all the same.
      Self.post(server, latitude: 60.1699, longitude: 24.9384, at: runtime)
      #expect(first.ids.isEmpty, "an implausible jump fires nothing")
    }
    let second = HeldNotificationSink(name: "held")
    try ReminderOutboxDaemonTests.start(directory, sink: second) { _, server, runtime in
      Self.advance(runtime, by: 30)
      Self.post(server, latitude: 60.1699, longitude: 24.9385, at: runtime)
      #expect(second.ids.count == 1, "the person is at the shop and was never reminded: \(second.ids)")
    }
  }

  @Test func aVisitRemindedBeforeARestartIsNotRemindedAgain() throws {
    let directory = TemporaryDirectory()
    let first = HeldNotificationSink(name: "held")
    try ReminderOutboxDaemonTests.start(directory, sink: first) { _, server, runtime in
      _ = server.send(HTTPRequest(method: "POST", path: "/api/v1/tasks", headers: ReminderOutboxDaemonTests.authorization, body: Data(Self.milk.utf8)))
      Self.post(server, latitude: 60.1699, longitude: 24.9384, at: runtime)
      #expect(first.ids.count == 1)
      first.settleAll()
      Self.advance(runtime, by: 60)
      // Still at the shop, the phone's position wandering 120 m off: outside
      // the radius, not clearly left (the exit margin).
      Self.post(server, latitude: 60.1699, longitude: 24.94055, at: runtime)
    }
    let second = HeldNotificationSink(name: "held")
    try ReminderOutboxDaemonTests.start(directory, sink: second) { _, server, runtime in
      Self.advance(runtime, by: 90)
      Self.post(server, latitude: 60.1699, longitude: 24.9384, at: runtime)
      #expect(second.ids.isEmpty, "the same visit, reminded before the restart: \(second.ids)")
    }
  }
}
