/// A button that answers a reminder by calling a URL (ntfy's `http`
/// action, a webhook receiver, a link in a message).
public struct ActionLink: Hashable, Sendable, Codable {
  /// `done` or `later` (`ReminderAction.identifier`).
  public let action: String
  public let label: String
  public let url: String

  public init(action: String, label: String, url: String) {
    self.action = action
    self.label = label
    self.url = url
  }
}

/// Makes the callback URLs for a notification's buttons.
///
/// Contract: one link per button of the notification's category, in the
/// same order; each URL works once and only for that person and task.
public protocol ActionLinkMaker: Sendable {
  func links(for notification: ReminderNotification) -> [ActionLink]
}
