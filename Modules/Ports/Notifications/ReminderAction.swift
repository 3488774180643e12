import Foundation

/// An answer a reminder offers. Remind Later carries how long to snooze.
public enum ReminderAction: Hashable, Sendable, Codable {
  case markDone
  case remindLater(TimeInterval)

  public var identifier: String {
    switch self {
    case .markDone: return "done"
    case .remindLater: return "later"
    }
  }
}
