import Foundation
import Notifications

/// `console` in the daemon: the reminder with its buttons on the log, and
/// the callback link behind each button, so a person at a terminal can
/// answer with curl.
final class DaemonConsoleSink: NotificationSink, Sendable {
  let name = "console"
  let person: String
  let links: any ActionLinkMaker
  let log: DaemonLog

  init(person: String, links: any ActionLinkMaker, log: DaemonLog) {
    self.person = person
    self.links = links
    self.log = log
  }

  func deliver(_ notification: ReminderNotification) throws {
    let buttons = notification.category.buttons.map { "[\($0.title)]" }.joined(separator: "  ")
    log("reminder", ["person": person, "title": notification.title, "body": notification.body, "buttons": buttons])
    for link in links.links(for: notification) {
      log("action-link", ["person": person, "label": link.label, "url": link.url])
    }
  }
}
