import Domain
import Foundation

/// Turns a firing into a notification and hands it to the sink, honouring
/// the notification permission: when it is denied nothing is shown, and the
/// caller is told so it can say what still works.
public struct NotificationScheduler: Sendable {
  public enum Outcome: Equatable, Sendable {
    case delivered(ReminderNotification)
    case suppressed(ReminderNotification, reason: String)
    case failed(ReminderNotification, NotificationError)
  }

  public let sink: any NotificationSink
  public let category: ReminderCategory

  public init(sink: any NotificationSink, category: ReminderCategory = .standard) {
    self.sink = sink
    self.category = category
  }

  public func notify(
    task: ReminderTask, location: LocationID, placeName: String?, distance: Double?, at: Date, visit: Int,
    notificationsAllowed: Bool = true
  ) -> Outcome {
    // A region entry says nothing about distance; only a fix does.
    let body = (placeName.map { "at \($0)" } ?? "nearby") + (distance.map { " (\(Int($0.rounded())) m)" } ?? "")
    let notification = ReminderNotification(
      id: "\(task.id):\(location):\(visit)", task: task.id, location: location, title: task.title, body: body,
      category: category, firedAt: at)
    guard notificationsAllowed else {
      return .suppressed(notification, reason: "notifications are not allowed")
    }
    do {
      try sink.deliver(notification)
      return .delivered(notification)
    } catch let error as NotificationError {
      return .failed(notification, error)
    } catch {
      return .failed(notification, NotificationError(sink: sink.name, reason: "\(error)"))
    }
  }
}
