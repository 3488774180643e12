import Foundation
import Gateway
import Notifications

/// `webhook:URL`: posts a JSON document per reminder, signed with
/// HMAC-SHA256 over the exact body in `X-WhileHere-Signature: sha256=HEX`
/// so the receiver can check it came from this daemon.
public final class WebhookSink: NotificationSink, Sendable {
  public let name: String
  let url: URL
  let secret: Data
  let authenticator: any MessageAuthenticator
  let links: any ActionLinkMaker
  let poster: any HTTPPoster
  public let queue: DeliveryQueue

  public convenience init(
    address: String, secret: String, authenticator: any MessageAuthenticator, links: any ActionLinkMaker, queue: DeliveryQueue,
    client: any HTTPSending, timeout: TimeInterval = 10
  ) throws {
    guard let url = URL(string: address), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
      throw NotificationError(sink: "webhook", reason: "'\(address)' is not an http(s) URL")
    }
    self.init(url: url, secret: Data(secret.utf8), authenticator: authenticator, links: links, queue: queue, poster: ClientPoster(client: client, timeout: timeout))
  }

  init(url: URL, secret: Data, authenticator: any MessageAuthenticator, links: any ActionLinkMaker, queue: DeliveryQueue, poster: any HTTPPoster) {
    self.url = url
    self.secret = secret
    self.authenticator = authenticator
    self.links = links
    self.queue = queue
    self.poster = poster
    name = "webhook:" + url.absoluteString
  }

  /// The document a receiver gets (Docs/Formats.md).
  public struct Document: Codable, Equatable, Sendable {
    public let type: String
    public let id: String
    public let task: String
    public let title: String
    public let body: String
    public let firedAt: Date
    public let actions: [ActionLink]
  }

  public func deliver(_ notification: ReminderNotification) throws { try deliver(notification, settled: {}) }

  /// Settled when the receiver took it or the queue gave up.
  public func deliver(_ notification: ReminderNotification, settled: @escaping @Sendable () -> Void) throws {
    var queued = false
    defer { if !queued { settled() } }
    let document = Document(
      type: "reminder", id: notification.id, task: notification.task.rawValue, title: notification.title, body: notification.body,
      firedAt: notification.firedAt, actions: links.links(for: notification))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    let body = try encoder.encode(document)
    let signature = authenticator.tag(body, key: secret).map { String(format: "%02x", $0) }.joined()
    let headers = ["Content-Type": "application/json", "X-WhileHere-Signature": "sha256=\(signature)"]
    let url = url
    let poster = poster
    let sinkName = name
    queued = true
    queue.submit("\(notification.id) to \(name)", settled: settled) {
      try poster.postAccepted(url, headers: headers, body: body, sink: sinkName, answerer: "receiver")
    }
  }
}
