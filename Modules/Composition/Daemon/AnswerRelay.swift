import Foundation
import Locking
import Notifications

/// Carries an answer from a sink that shows its own buttons (the desktop)
/// to the person, who is made after their sinks.
final class AnswerRelay: Sendable {
  /// Weak: the person holds their sinks, and a sink holds this relay.
  private struct Target {
    weak var person: Person?
  }
  private let target = Locked(Target())
  let log: DaemonLog

  init(log: DaemonLog) { self.log = log }

  var person: Person? {
    get { target.withLock { $0.person } }
    set { target.withLock { $0.person = newValue } }
  }

  func answer(_ action: ReminderAction, notification: ReminderNotification) {
    guard let person else { return }
    do {
      let task = try person.answer(action, task: notification.task)
      log("answered", ["person": person.name, "task": task.id.rawValue, "action": action.identifier, "via": "desktop"])
    } catch {
      log("answer-failed", ["person": person.name, "task": notification.task.rawValue, "error": "\(error)"])
    }
  }
}
