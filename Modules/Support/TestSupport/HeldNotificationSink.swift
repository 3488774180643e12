import Locking
import Notifications

/// A sink like ntfy while its server is down: it takes reminders and
/// settles them only when the test says so (`settleAll`).
public final class HeldNotificationSink: NotificationSink {
  public let name: String
  public let held = Locked<[(notification: ReminderNotification, settled: @Sendable () -> Void)]>([])

  public init(name: String = "ntfy:https://ntfy.example/topic") { self.name = name }

  public var ids: [String] { held.withLock { $0.map(\.notification.id) } }

  public func deliver(_ notification: ReminderNotification) throws { try deliver(notification, settled: {}) }

  public func deliver(_ notification: ReminderNotification, settled: @escaping @Sendable () -> Void) throws {
    held.withLock { $0.append((notification, settled)) }
  }

  /// Settles everything held, as a server that came back would.
  public func settleAll() {
    let taken = held.withLock { held in
      defer { held = [] }
      return held
    }
    for entry in taken { entry.settled() }
  }
}
