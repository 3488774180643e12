import Foundation
import Locking
import Notifications

/// Carries an answer from a sink that shows its own buttons (the desktop)
/// to the person, who is made after their sinks.
final class AnswerRelay: Sendable {
  /// Held until the person closes (`release`): the person holds their
  /// sinks, and a sink holds this relay. Not weak: a weak reference to a
  /// Person sent every retain of it through a side table, one more cache
  /// miss per request with 10,000 people (Docs/Benchmarks.md, 2026-12-05).
  private struct Target {
    var person: Person?
  }
  private let target = Locked(Target())
  let log: DaemonLog

  init(log: DaemonLog) { self.log = log }

  var person: Person? {
    get { target.withLock { $0.person } }
    set { target.withLock { $0.person = newValue } }
  }

  /// Lets the person go (they closed, or never opened).
  func release() { person = nil }

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
