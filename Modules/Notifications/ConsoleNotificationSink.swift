import Foundation
import Synchronization

/// Prints each reminder with its buttons; the `console` sink.
public final class ConsoleNotificationSink: NotificationSink {
  public let name = "console"
  private let write: @Sendable (String) -> Void
  private let lock = Mutex(())

  /// `write` receives whole lines; standard output by default.
  public init(write: @escaping @Sendable (String) -> Void = { print($0) }) {
    self.write = write
  }

  public func deliver(_ notification: ReminderNotification) throws {
    let buttons = notification.category.buttons.map { "[\($0.title)]" }.joined(separator: "  ")
    lock.withLock { _ in
      write("Reminder: \(notification.title) — \(notification.body)   \(buttons)")
    }
  }
}
