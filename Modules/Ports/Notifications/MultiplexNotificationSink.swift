import Locking

/// Hands each reminder to several sinks. One failing sink does not stop the
/// others; the failures are thrown together afterwards.
public final class MultiplexNotificationSink: NotificationSink {
  public let sinks: [any NotificationSink]
  public var name: String { sinks.map(\.name).joined(separator: "+") }

  public init(_ sinks: [any NotificationSink]) { self.sinks = sinks }

  public func deliver(_ notification: ReminderNotification) throws { try deliver(notification, settled: {}) }

  /// Settled once every sink that took it settled.
  public func deliver(_ notification: ReminderNotification, settled: @escaping @Sendable () -> Void) throws {
    var failures: [String] = []
    // One count for each sink and one for this loop, so nothing settles before every sink was tried.
    let left = Locked(sinks.count + 1)
    let one: @Sendable () -> Void = {
      if left.withLock({ count -> Bool in
        count -= 1
        return count == 0
      }) { settled() }
    }
    for sink in sinks {
      do { try sink.deliver(notification, settled: one) } catch {
        failures.append("\(error)")
        one()
      }
    }
    one()
    if !failures.isEmpty {
      throw NotificationError(sink: name, reason: failures.joined(separator: "; "))
    }
  }
}
