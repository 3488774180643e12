import Foundation
import Notifications

/// `console`: the reminder with its buttons on the program's log, and the
/// callback link behind each button, so a person at a terminal can answer
/// with curl.
public final class ConsoleLogSink: NotificationSink, Sendable {
  public let name = "console"
  let person: String
  let links: any ActionLinkMaker
  let log: @Sendable (String, [(String, String)]) -> Void

  public init(person: String, links: any ActionLinkMaker, log: @escaping @Sendable (String, [(String, String)]) -> Void) {
    self.person = person
    self.links = links
    self.log = log
  }

  public func deliver(_ notification: ReminderNotification) throws {
    let buttons = notification.category.buttons.map { "[\($0.title)]" }.joined(separator: "  ")
    log("reminder", [("person", person), ("title", notification.title), ("body", notification.body), ("buttons", buttons)])
    for link in links.links(for: notification) {
      log("action-link", [("person", person), ("label", link.label), ("url", link.url)])
    }
  }
}
