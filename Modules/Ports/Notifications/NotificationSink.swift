/// Where reminders go: a console, a phone (ntfy), a webhook, a desktop.
///
/// Contract (checked by `NotificationSinkConformance` in TestSupport):
/// - `deliver` hands one notification on, or throws a `NotificationError`
///   saying why; it never blocks for long (network sinks queue and retry
///   with backoff on their own) and never drops a notification silently;
/// - delivering the same notification id twice is allowed and must not
///   show it twice where the medium can tell (ntfy and desktop replace by id);
/// - a sink carries only what the person configured it for: location data
///   goes nowhere else;
/// - `deliver(_:settled:)` calls `settled` exactly once, when nothing more
///   will be tried: at once for a sink that hands on synchronously (or
///   throws), and for a queueing sink when the receiver took it or the
///   queue gave up for good. Until then a durable outbox keeps the
///   notification (`ReminderOutbox`), so a restart sends it again.
///
/// ```swift
/// try sink.deliver(notification)
/// ```
public protocol NotificationSink: AnyObject, Sendable {
  /// A short name for logs and `whilehere doctor` (`console`, `ntfy:…`).
  var name: String { get }
  /// Delivers one reminder.
  func deliver(_ notification: ReminderNotification) throws
  /// Delivers one reminder and says when it is settled (see above).
  func deliver(_ notification: ReminderNotification, settled: @escaping @Sendable () -> Void) throws
}

extension NotificationSink {
  /// A sink that hands on synchronously is settled once `deliver` returned or threw.
  public func deliver(_ notification: ReminderNotification, settled: @escaping @Sendable () -> Void) throws {
    defer { settled() }
    try deliver(notification)
  }
}

/// Why a sink could not deliver.
public struct NotificationError: Error, Equatable, Sendable, CustomStringConvertible {
  public let sink: String
  public let reason: String
  /// Trying again cannot help (the receiver refused the request itself:
  /// a wrong token, a bad address); a delivery queue gives up at once.
  public let permanent: Bool

  public init(sink: String, reason: String, permanent: Bool = false) {
    self.sink = sink
    self.reason = reason
    self.permanent = permanent
  }

  public var description: String { "notification sink \(sink): \(reason)" }
}
