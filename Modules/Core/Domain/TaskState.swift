import Foundation

/// Where a task stands. Completed tasks keep their locations' own `enabled`
/// flags untouched, so reopening restores exactly what was there.
public enum TaskState: Hashable, Codable, Sendable {
  case active
  case snoozed(until: Date)
  case completed(at: Date)

  public var isCompleted: Bool {
    if case .completed = self { return true }
    return false
  }

  /// Whether reminders may fire at `now`: active, or a snooze that has run out.
  public func isLive(at now: Date) -> Bool {
    switch self {
    case .active: return true
    case .snoozed(let until): return now >= until
    case .completed: return false
    }
  }

  public var name: String {
    switch self {
    case .active: return "active"
    case .snoozed: return "snoozed"
    case .completed: return "completed"
    }
  }

  /// The state as seen at `now`: an expired snooze reads as active.
  public func effective(at now: Date) -> TaskState {
    if case .snoozed(let until) = self, now >= until { return .active }
    return self
  }
}
