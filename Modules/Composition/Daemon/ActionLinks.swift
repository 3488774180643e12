import Foundation
import Gateway
import Notifications

/// Signed `POST /actions/TOKEN` links for one person's reminders.
struct ActionLinks: ActionLinkMaker {
  let person: String
  let baseURL: @Sendable () -> String
  let signer: any TokenSigner
  let clock: @Sendable () -> Date
  /// Links stay valid this long: a reminder read the next morning still works.
  let lifetime: TimeInterval

  func links(for notification: ReminderNotification) -> [ActionLink] {
    let expires = Int(clock().addingTimeInterval(lifetime).timeIntervalSince1970)
    return notification.category.buttons.map { button in
      var nonce = [UInt8](repeating: 0, count: 12)
      for index in nonce.indices { nonce[index] = UInt8.random(in: 0...255) }
      let token = ActionToken(
        p: person, t: notification.task.rawValue, a: button.action.identifier, e: expires,
        n: nonce.map { String(format: "%02x", $0) }.joined())
      return ActionLink(action: button.action.identifier, label: button.title, url: baseURL() + "/actions/" + token.sealed(with: signer))
    }
  }
}
