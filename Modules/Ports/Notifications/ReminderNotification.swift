import Domain
import Foundation

/// One reminder to show a person: which task, where, and the buttons.
public struct ReminderNotification: Hashable, Sendable, Codable {
  /// Stable for one visit, so a sink that retries never shows it twice.
  public let id: String
  public let task: TaskID
  public let location: LocationID
  public let title: String
  public let body: String
  public let category: ReminderCategory
  public let firedAt: Date

  public init(
    id: String, task: TaskID, location: LocationID, title: String, body: String, category: ReminderCategory, firedAt: Date
  ) {
    self.id = id
    self.task = task
    self.location = location
    self.title = title
    self.body = body
    self.category = category
    self.firedAt = firedAt
  }
}
