import Foundation

/// The buttons a reminder carries, as a notification category: Mark Done and
/// Remind Later, with their titles and the snooze length from configuration.
public struct ReminderCategory: Hashable, Sendable, Codable {
  public struct Button: Hashable, Sendable, Codable {
    public let action: ReminderAction
    public let title: String
  }

  public let identifier: String
  public let buttons: [Button]

  public init(
    identifier: String = "whilehere.reminder", doneTitle: String = "Mark Done", laterTitle: String = "Remind Later",
    laterDuration: TimeInterval = 3600
  ) {
    self.identifier = identifier
    buttons = [
      Button(action: .markDone, title: doneTitle), Button(action: .remindLater(laterDuration), title: laterTitle),
    ]
  }

  public static let standard = ReminderCategory()
}
