import CurlHTTP
import Foundation
import Gateway
import Locking
import MicroHTTP
import Notifications
import PushSinks
import Sodium
import Testing
import TestSupport

/// ntfy, webhook and jsonl sinks through the shared sink suite, against a
/// local receiver; failures are retried and counted.
@Suite struct HTTPSinkTests {
  struct Links: ActionLinkMaker {
    func links(for notification: ReminderNotification) -> [ActionLink] {
      notification.category.buttons.map { ActionLink(action: $0.action.identifier, label: $0.title, url: "https://wh.example.org/actions/\($0.action.identifier)") }
    }
  }

  func receiver(status: Int = 200) throws -> (RecordingHTTPHandler, MicroHTTPServer, Int) {
    let handler = RecordingHTTPHandler { _ in HTTPResponse(status: status) }
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0))
    return (handler, server, try server.start(handler))
  }

  func bodies(_ handler: RecordingHTTPHandler, _ queue: DeliveryQueue) -> String {
    _ = queue.drain(timeout: 10)
    return handler.requests.map { String(decoding: $0.body, as: UTF8.self) }.joined(separator: "\n")
  }

  @Test func ntfyPassesTheSharedSinkSuite() throws {
    let (handler, server, port) = try receiver()
    defer { server.stop() }
    let queue = DeliveryQueue(label: "t", firstDelay: 0)
    try NotificationSinkConformance.verify(
      make: { try NtfySink(address: "http://127.0.0.1:\(port)/my-topic", token: "tk_1", links: Links(), queue: queue, client: CurlHTTPClient()) },
      delivered: { _ in bodies(handler, queue) })
    #expect(handler.requests.first?.path == "/")
    #expect(handler.requests.first?.header("authorization") == "Bearer tk_1")
  }

  @Test func webhookPassesTheSharedSinkSuiteAndSigns() throws {
    let (handler, server, port) = try receiver()
    defer { server.stop() }
    let queue = DeliveryQueue(label: "t", firstDelay: 0)
    try NotificationSinkConformance.verify(
      make: { try WebhookSink(address: "http://127.0.0.1:\(port)/hook", secret: "k", authenticator: SodiumHMAC(), links: Links(), queue: queue, client: CurlHTTPClient()) },
      delivered: { _ in bodies(handler, queue) })
    let request = try #require(handler.requests.first)
    let tag = SodiumHMAC().tag(request.body, key: Data("k".utf8)).map { String(format: "%02x", $0) }.joined()
    #expect(request.header("x-whilehere-signature") == "sha256=\(tag)")
  }

  @Test func jsonLinesPassesTheSharedSinkSuiteAndIsPrivate() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("reminders.jsonl")
    try NotificationSinkConformance.verify(
      make: { try JSONLinesSink(path: path, links: Links()) },
      delivered: { _ in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" })
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }

  @Test func aFailingReceiverIsRetriedThenCountedAsFailed() throws {
    let (handler, server, port) = try receiver(status: 503)
    defer { server.stop() }
    let queue = DeliveryQueue(label: "t", retries: 2, firstDelay: 0)
    let sink = try NtfySink(address: "http://127.0.0.1:\(port)/t", token: nil, links: Links(), queue: queue, client: CurlHTTPClient())
    let settled = Locked(0)
    try sink.deliver(NotificationSinkConformance.sample(title: "Buy milk", body: "x")) { settled.withLock { $0 += 1 } }
    #expect(queue.drain(timeout: 10))
    #expect(handler.requests.count == 3)
    #expect(settled.withLock { $0 } == 1, "given up is settled: an outbox keeps it no longer")
    #expect(queue.status.failed == 1 && queue.status.delivered == 0 && queue.status.retrying == 0)
    #expect(queue.status.lastError?.contains("503") == true)
  }

  @Test(arguments: [400, 401, 403, 404])
  func aRefusalIsNotRetried(status: Int) throws {
    let (handler, server, port) = try receiver(status: status)
    defer { server.stop() }
    let queue = DeliveryQueue(label: "t", retries: 3, firstDelay: 0)
    let sink = try NtfySink(address: "http://127.0.0.1:\(port)/t", token: "tk_wrong", links: Links(), queue: queue, client: CurlHTTPClient())
    try sink.deliver(NotificationSinkConformance.sample(title: "Buy milk", body: "x"))
    #expect(queue.drain(timeout: 10))
    #expect(handler.requests.count == 1, "the same request would be refused again")
    #expect(queue.status.failed == 1 && queue.status.retrying == 0)
    #expect(queue.status.lastError?.contains(String(status)) == true)
  }

  @Test(arguments: [408, 429, 500])
  func aTransientAnswerIsRetried(status: Int) throws {
    let (handler, server, port) = try receiver(status: status)
    defer { server.stop() }
    let queue = DeliveryQueue(label: "t", retries: 1, firstDelay: 0)
    let sink = try NtfySink(address: "http://127.0.0.1:\(port)/t", token: nil, links: Links(), queue: queue, client: CurlHTTPClient())
    try sink.deliver(NotificationSinkConformance.sample(title: "Buy milk", body: "x"))
    #expect(queue.drain(timeout: 10))
    #expect(handler.requests.count == 2)
  }

  @Test func badAddressesAreRefusedAtStart() {
    #expect(throws: NotificationError.self) { try NtfySink(address: "ftp://x/t", token: nil, links: Links(), queue: DeliveryQueue(label: "t"), client: CurlHTTPClient()) }
    #expect(throws: NotificationError.self) { try NtfySink(address: "https://ntfy.sh/", token: nil, links: Links(), queue: DeliveryQueue(label: "t"), client: CurlHTTPClient()) }
    #expect(throws: NotificationError.self) { try JSONLinesSink(path: "/nonexistent/dir/x.jsonl", links: nil) }
  }
}
