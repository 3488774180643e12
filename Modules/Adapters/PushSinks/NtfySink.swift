import Foundation
import Gateway
import Notifications

/// `ntfy:URL/TOPIC`: publishes each reminder with ntfy's JSON API (POST to
/// the server root) with Mark Done and Remind Later as `http` buttons that
/// call back this daemon.
public final class NtfySink: NotificationSink, Sendable {
  public let name: String
  let server: URL
  let topic: String
  let token: String?
  let links: any ActionLinkMaker
  let poster: any HTTPPoster
  public let queue: DeliveryQueue

  /// `address` is the topic URL (`https://ntfy.sh/my-topic`).
  public convenience init(
    address: String, token: String?, links: any ActionLinkMaker, queue: DeliveryQueue, client: any HTTPSending, timeout: TimeInterval = 10
  ) throws {
    guard let url = URL(string: address), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
      throw NotificationError(sink: "ntfy", reason: "'\(address)' is not an http(s) URL such as https://ntfy.sh/TOPIC")
    }
    let topic = url.lastPathComponent
    guard !topic.isEmpty, topic != "/" else {
      throw NotificationError(sink: "ntfy", reason: "'\(address)' names no topic: use https://HOST/TOPIC")
    }
    self.init(server: url.deletingLastPathComponent(), topic: topic, token: token, links: links, queue: queue, poster: ClientPoster(client: client, timeout: timeout))
  }

  init(server: URL, topic: String, token: String?, links: any ActionLinkMaker, queue: DeliveryQueue, poster: any HTTPPoster) {
    self.server = server
    self.topic = topic
    self.token = token
    self.links = links
    self.queue = queue
    self.poster = poster
    name = "ntfy:" + server.appendingPathComponent(topic).absoluteString
  }

  struct Message: Encodable {
    struct Action: Encodable {
      let action = "http"
      let label: String
      let url: String
      let method = "POST"
      let clear: Bool
    }

    let topic: String
    let title: String
    let message: String
    let tags: [String]
    let priority: Int
    let actions: [Action]
  }

  public func deliver(_ notification: ReminderNotification) throws { try deliver(notification, settled: {}) }

  /// Settled when the server took it or the queue gave up.
  public func deliver(_ notification: ReminderNotification, settled: @escaping @Sendable () -> Void) throws {
    var queued = false
    defer { if !queued { settled() } }
    let actions = links.links(for: notification).prefix(3).map { link in
      Message.Action(label: link.label, url: link.url, clear: link.action == ReminderAction.markDone.identifier)
    }
    let message = Message(
      topic: topic, title: notification.title, message: notification.body, tags: ["round_pushpin"], priority: 4, actions: Array(actions))
    let body = try JSONEncoder().encode(message)
    var extra = ["Content-Type": "application/json"]
    if let token { extra["Authorization"] = "Bearer \(token)" }
    let headers = extra
    let server = server
    let poster = poster
    let sinkName = name
    queued = true
    queue.submit("\(notification.id) to \(name)", settled: settled) {
      try poster.postAccepted(server, headers: headers, body: body, sink: sinkName, answerer: "server")
    }
  }
}
