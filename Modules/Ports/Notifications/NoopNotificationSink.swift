/// Accepts and discards reminders: for a profile with notifications off.
public final class NoopNotificationSink: NotificationSink {
  public let name = "noop"
  public init() {}
  public func deliver(_ notification: ReminderNotification) throws {}
}
