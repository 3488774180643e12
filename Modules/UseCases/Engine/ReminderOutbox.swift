import Domain
import Foundation
import Notifications
import Persistence

/// One sink's reminders kept in the person's store from the moment they
/// fire until the sink settled them (the receiver took them, or its queue
/// gave up), so a reminder still waiting for a receiver that is down when
/// the process dies or stops is sent again at the next start (`resend`)
/// instead of being lost: the engine has counted the visit as reminded and
/// will not fire it again.
///
/// Each entry is a setting `outbox.SINK.ID` (SINK: a hash of the sink's
/// name, ID: the notification's id, stable for one visit), written durably
/// before the sink is handed the reminder.
public final class ReminderOutbox: NotificationSink {
  public let inner: any NotificationSink
  let store: any OperationStore
  let log: @Sendable (String) -> Void
  /// Where this sink's entries start.
  let prefix: String

  public var name: String { inner.name }

  public init(_ inner: any NotificationSink, store: any OperationStore, log: @escaping @Sendable (String) -> Void = { _ in }) {
    self.inner = inner
    self.store = store
    self.log = log
    prefix = Self.keyPrefix + FNV1a.hex(FNV1a.hash64(Array(inner.name.utf8))) + "."
  }

  /// Where every sink's entries start (`outbox.SINK.ID`).
  public static let keyPrefix = "outbox."

  /// A reminder is about being at a place: one that could not be sent for
  /// longer than this is dropped at a restart rather than sent late.
  public static let resendWithin: TimeInterval = 3600

  public func deliver(_ notification: ReminderNotification) throws { try deliver(notification, settled: {}) }

  public func deliver(_ notification: ReminderNotification, settled: @escaping @Sendable () -> Void) throws {
    let key = prefix + notification.id
    do {
      let text = String(decoding: try JSONEncoder().encode(notification), as: UTF8.self)
      try store.append([.put(.setting(key: key, value: text))])
    } catch {
      // Sending it matters more than keeping it for a restart.
      log("could not keep reminder \(notification.id) for \(inner.name) until it is delivered: \(error)")
    }
    try send(notification, key: key, settled: settled)
  }

  private func send(_ notification: ReminderNotification, key: String, settled: @escaping @Sendable () -> Void) throws {
    let store = store
    let log = log
    let name = inner.name
    try inner.deliver(notification) {
      do { try store.append([.delete(.setting(key))]) } catch {
        log("reminder \(notification.id) for \(name) was settled but is still kept (it may be sent again at a restart): \(error)")
      }
      settled()
    }
  }

  /// What the last run left unsettled, sent again through the sinks that
  /// hold it now: entries of a sink no longer configured, or older than
  /// `within`, are dropped (and logged). Call once at start, or when
  /// taking a person over from another worker, before new reminders.
  @discardableResult
  public static func resend(
    _ outboxes: [ReminderOutbox], store: any OperationStore, now: Date, within: TimeInterval = resendWithin,
    log: @Sendable (String) -> Void = { _ in }
  ) -> (resent: Int, dropped: Int) {
    var resent = 0
    var dropped: [String] = []
    // In the order they fired (an entry that cannot be read sorts first and is dropped).
    let kept = store.state().settings.filter { $0.key.hasPrefix(keyPrefix) }.map { (key: $0.key, text: $0.value, notification: Self.read($0.value)) }
      .sorted { ($0.notification?.firedAt ?? .distantPast, $0.key) < ($1.notification?.firedAt ?? .distantPast, $1.key) }
    for (key, _, read) in kept {
      guard let outbox = outboxes.first(where: { key.hasPrefix($0.prefix) }) else {
        log("dropped a kept reminder for a sink no longer configured (\(key))")
        dropped.append(key)
        continue
      }
      guard let notification = read, outbox.prefix + notification.id == key else {
        log("dropped a kept reminder that cannot be read (\(key))")
        dropped.append(key)
        continue
      }
      guard now.timeIntervalSince(notification.firedAt) <= within else {
        log("dropped reminder \(notification.id) for \(outbox.name): fired \(Int(now.timeIntervalSince(notification.firedAt))) s ago, too late to send")
        dropped.append(key)
        continue
      }
      do {
        try outbox.send(notification, key: key, settled: {})
        resent += 1
      } catch {
        log("could not send kept reminder \(notification.id) again through \(outbox.name): \(error)")
      }
    }
    if !dropped.isEmpty {
      do { try store.append(dropped.sorted().map { .delete(.setting($0)) }) } catch { log("could not drop kept reminders: \(error)") }
    }
    return (resent, dropped.count)
  }

  static func read(_ text: String) -> ReminderNotification? {
    try? JSONDecoder().decodeOutside(ReminderNotification.self, from: Data(text.utf8))
  }
}
