import Domain
import Engine
import FileStore
import Foundation
import Locking
import Notifications
import Persistence
import Testing
import TestSupport

/// A reminder stays in the person's store until its sink settled it, and
/// what a stop or a crash left unsettled is sent again at the next start,
/// once, unless it is too old to matter or its sink is gone.
@Suite struct ReminderOutboxTests {
  func reminder(_ id: String, firedAt: Date) -> ReminderNotification {
    ReminderNotification(
      id: id, task: TaskID("t1"), location: LocationID("l1"), title: "Buy milk", body: "at Alepa (12 m)", category: .standard, firedAt: firedAt)
  }

  func kept(_ store: any OperationStore) -> [String] { store.state().settings.keys.filter { $0.hasPrefix("outbox.") }.sorted() }

  @Test func aReminderIsKeptUntilItsSinkSettledIt() throws {
    let store = InMemoryOperationStore(replica: try ReplicaID("r1"))
    let sink = HeldNotificationSink()
    let outbox = ReminderOutbox(sink, store: store)
    let settled = Locked(0)
    try outbox.deliver(reminder("t1:l1:1", firedAt: Fixtures.epoch)) { settled.withLock { $0 += 1 } }
    #expect(kept(store).count == 1 && settled.withLock { $0 } == 0)
    sink.settleAll()
    #expect(kept(store).isEmpty && settled.withLock { $0 } == 1)
  }

  @Test func whatACrashLeftIsSentAgainAtTheNextStartOnce() throws {
    let directory = TemporaryDirectory()
    let replica = try ReplicaID("r1")
    do {
      let store = try FileOperationStore(directory: directory.path, newReplica: replica)
      // Delivered: gone. Waiting for a server that is down when the process dies: kept.
      let sink = HeldNotificationSink()
      let outbox = ReminderOutbox(sink, store: store)
      try outbox.deliver(reminder("t1:l1:1", firedAt: Fixtures.epoch))
      sink.settleAll()
      try outbox.deliver(reminder("t2:l1:1", firedAt: Fixtures.epoch))
      store.close()
    }
    let store = try FileOperationStore(directory: directory.path, newReplica: replica)
    let sink = HeldNotificationSink()
    let outbox = ReminderOutbox(sink, store: store)
    let result = ReminderOutbox.resend([outbox], store: store, now: Fixtures.epoch.addingTimeInterval(60))
    #expect(result.resent == 1 && result.dropped == 0)
    #expect(sink.ids == ["t2:l1:1"])
    sink.settleAll()
    #expect(kept(store).isEmpty)
    #expect(ReminderOutbox.resend([outbox], store: store, now: Fixtures.epoch.addingTimeInterval(61)).resent == 0)
  }

  @Test func aReminderTooOldOrForASinkNoLongerConfiguredIsDroppedNotSent() throws {
    let store = InMemoryOperationStore(replica: try ReplicaID("r1"))
    let gone = ReminderOutbox(HeldNotificationSink(name: "webhook:https://old.example/hook"), store: store)
    try gone.deliver(reminder("t1:l1:1", firedAt: Fixtures.epoch))
    let sink = HeldNotificationSink()
    let outbox = ReminderOutbox(sink, store: store)
    try outbox.deliver(reminder("t2:l1:1", firedAt: Fixtures.epoch))
    sink.held.withLock { $0 = [] }
    let lines = Locked<[String]>([])
    let result = ReminderOutbox.resend(
      [outbox], store: store, now: Fixtures.epoch.addingTimeInterval(ReminderOutbox.resendWithin + 1), log: { line in lines.withLock { $0.append(line) } })
    #expect(result.resent == 0 && result.dropped == 2)
    #expect(sink.held.withLock { $0.isEmpty } && kept(store).isEmpty)
    #expect(lines.withLock { $0 }.contains { $0.contains("no longer configured") })
    #expect(lines.withLock { $0 }.contains { $0.contains("too late") })
  }

  @Test func keptRemindersAreSentAgainInTheOrderTheyFired() throws {
    let store = InMemoryOperationStore(replica: try ReplicaID("r1"))
    let down = HeldNotificationSink()
    let outbox = ReminderOutbox(down, store: store)
    for (id, seconds) in [("t9:l1:1", 30.0), ("t1:l1:1", 10), ("t5:l1:1", 20)] {
      try outbox.deliver(reminder(id, firedAt: Fixtures.epoch.addingTimeInterval(seconds)))
    }
    let back = HeldNotificationSink()
    ReminderOutbox.resend([ReminderOutbox(back, store: store)], store: store, now: Fixtures.epoch.addingTimeInterval(60))
    #expect(back.ids == ["t1:l1:1", "t5:l1:1", "t9:l1:1"])
  }

  @Test func aSinkThatRefusesAtOnceLeavesNothingKept() throws {
    let store = InMemoryOperationStore(replica: try ReplicaID("r1"))
    let outbox = ReminderOutbox(RefusingSink(), store: store)
    #expect(throws: NotificationError.self) { try outbox.deliver(reminder("t1:l1:1", firedAt: Fixtures.epoch)) }
    #expect(kept(store).isEmpty)
  }

  final class RefusingSink: NotificationSink {
    let name = "refusing"
    func deliver(_ notification: ReminderNotification) throws { throw NotificationError(sink: name, reason: "no", permanent: true) }
  }
}
