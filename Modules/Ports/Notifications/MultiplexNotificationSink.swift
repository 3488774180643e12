/// Hands each reminder to several sinks. One failing sink does not stop the
/// others; the failures are thrown together afterwards.
public final class MultiplexNotificationSink: NotificationSink {
  public let sinks: [any NotificationSink]
  public var name: String { sinks.map(\.name).joined(separator: "+") }

  public init(_ sinks: [any NotificationSink]) { self.sinks = sinks }

  public func deliver(_ notification: ReminderNotification) throws {
    var failures: [String] = []
    for sink in sinks {
      do { try sink.deliver(notification) } catch { failures.append("\(error)") }
    }
    if !failures.isEmpty {
      throw NotificationError(sink: name, reason: failures.joined(separator: "; "))
    }
  }
}
