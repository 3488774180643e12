import Foundation

/// How reminders look and what Remind Later means, from configuration
/// (`reminders` in the config file).
public struct ReminderSettings: Hashable, Sendable, Codable {
  public var doneTitle = "Mark Done"
  public var laterTitle = "Remind Later"
  /// Seconds Remind Later snoozes for.
  public var laterDuration: TimeInterval = 3600

  public init() {}

  public var category: ReminderCategory {
    ReminderCategory(doneTitle: doneTitle, laterTitle: laterTitle, laterDuration: laterDuration)
  }
}
