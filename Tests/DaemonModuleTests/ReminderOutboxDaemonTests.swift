import Composition
@testable import Daemon
import Domain
import Foundation
import Gateway
import Notifications
import Sodium
import Testing
import TestSupport

/// A reminder whose receiver was down when whilehered stopped is sent at
/// the next start, once: the engine already counted the visit as
/// reminded, so without the outbox it would be lost.
@Suite struct ReminderOutboxDaemonTests {
  /// One whilehered over the file store in `directory`, reminders going to `sink`.
  static func start(_ directory: TemporaryDirectory, sink: HeldNotificationSink, run: (DaemonHost, DirectHTTPServer, Runtime) throws -> Void) throws {
    var registry = ProviderRegistry.standard
    registry.notify["held"] = NotifyFactory(summary: "a sink whose receiver is down until the test says") { _ in (sink, nil) }
    let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
    let config = directory.write(
      "config.json",
      #"{"store": "file:\#(directory.file("store"))", "clock": "manual:2026-06-01T12:00:00Z", "notify": ["held"], "server": {"listen": "127.0.0.1:0", "http": "direct"}, "people": {"alice": {"password": "\#(try hasher.hash("secret"))"}}}"#)
    let box = DirectHTTPServerSlot()
    registry.servers["direct"] = PortFactory(summary: "requests handed to the handler") { options in box.keep(DirectHTTPServer(options: options)) }
    let runtime = try Runtime.bootHashing(with: hasher, config: config, registry: registry)
    defer { runtime.shutdown() }
    let host = try DaemonHost.start(runtime: runtime, log: DaemonLog { _ in })
    defer { host.stop(drainSeconds: 1) }
    try run(host, try #require(box.server), runtime)
  }

  static let authorization = ["Authorization": "Basic " + Data("alice:secret".utf8).base64EncodedString()]

  @Test func aReminderNotDeliveredBeforeAStopIsSentAtTheNextStartOnce() throws {
    let directory = TemporaryDirectory()
    let down = HeldNotificationSink(name: "held")
    try Self.start(directory, sink: down) { host, server, runtime in
      let made = server.send(
        HTTPRequest(
          method: "POST", path: "/api/v1/tasks", headers: Self.authorization,
          body: Data(#"{"title":"Buy milk","locations":[{"at":"60.1699,24.9384"}]}"#.utf8)))
      #expect(made?.status == 201)
      let tst = Int(runtime.clock.now().timeIntervalSince1970)
      let report = #"{"_type":"location","lat":60.1699,"lon":24.9384,"tst":\#(tst),"acc":5}"#
      for _ in 0..<3 { _ = server.send(HTTPRequest(method: "POST", path: "/owntracks", headers: Self.authorization, body: Data(report.utf8))) }
      #expect(down.ids.count == 1, "the visit fired once, to a receiver that is down")
      let status = server.send(HTTPRequest(method: "GET", path: "/api/v1/status", headers: Self.authorization))
      let object = (try? JSONSerialization.jsonObject(with: status?.body ?? Data())) as? [String: Any]
      #expect((object?["deliveries"] as? [String: Int])?["waiting"] == 1, "\(String(describing: object))")
      #expect((object?["notes"] as? [String])?.contains { $0.contains("1 reminder is waiting") } == true)
    }
    let back = HeldNotificationSink(name: "held")
    try Self.start(directory, sink: back) { host, _, _ in
      #expect(back.ids == down.ids, "the same reminder, with the same id, at start")
      back.settleAll()
      let kept = host.people.byName["alice"]?.store.state().settings.keys.filter { $0.hasPrefix("outbox.") } ?? ["?"]
      #expect(kept.isEmpty, "\(kept)")
    }
    let again = HeldNotificationSink(name: "held")
    try Self.start(directory, sink: again) { _, _, _ in #expect(again.ids.isEmpty, "delivered once is not sent again") }
  }
}
