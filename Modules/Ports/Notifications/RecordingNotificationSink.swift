import Locking

/// Keeps every reminder delivered, in order, for tests and the simulator.
public final class RecordingNotificationSink: NotificationSink {
  public let name = "recording"
  private let delivered = Locked<[ReminderNotification]>([])

  public init() {}

  public var notifications: [ReminderNotification] { delivered.withLock { $0 } }

  public func deliver(_ notification: ReminderNotification) throws {
    delivered.withLock { $0.append(notification) }
  }
}
