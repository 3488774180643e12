@testable import Daemon
import Foundation
import Gateway
import Locking
import Testing
import TestSupport

/// OwnTracks in MQTT mode, against an in-memory broker: reports on
/// `owntracks/USER/DEVICE`, commands back on `…/cmd`.
@Suite struct MQTTIngestTests {
  final class Phone: Sendable {
    let client: InMemoryBroker.Client
    /// Payloads as they came; parsed when read.
    private let received = Locked<[Data]>([])

    init(hub: InMemoryBroker, topic: String) throws {
      client = hub.client()
      try client.connect(subscriptions: [topic]) { [weak self] _, payload in self?.received.withLock { $0.append(payload) } }
    }

    private var objects: [[String: Any]] {
      received.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
    var actions: [String] { objects.compactMap { $0["action"] as? String } }
    var last: [String: Any]? { objects.last }
  }

  @Test func reportsFireAndCommandsComeBackOnTheCommandTopic() throws {
    let hub = InMemoryBroker()
    let daemon = try DaemonHarness(broker: hub)
    #expect(daemon.host.listensToMQTT)
    let phone = try Phone(hub: hub, topic: "owntracks/alice/phone/cmd")
    _ = daemon.addTask("Buy milk")
    try phone.client.publish(topic: "owntracks/alice/phone", payload: Data(daemon.location(north: 3000).utf8))
    hub.settle()
    hub.settle()
    #expect(phone.actions == ["clearWaypoints", "setWaypoints"])
    daemon.clock.advance(by: 120)
    try phone.client.publish(topic: "owntracks/alice/phone", payload: Data(daemon.location(north: 10).utf8))
    hub.settle()
    let done = try #require(daemon.links().first { $0.label == "Mark Done" })
    #expect(daemon.send("POST", DaemonHarness.path(of: done.url), as: nil).status == 200)
    // The answer changed the plan; MQTT phones get it pushed without reporting.
    daemon.host.mqtt?.flush()
    hub.settle()
    #expect(phone.actions.suffix(2) == ["clearWaypoints", "setWaypoints"])
    let list = (phone.last?["waypoints"] as? [String: Any])?["waypoints"] as? [Any]
    #expect(list?.isEmpty == true)
  }

  @Test func strangersAndUnknownDevicesAreIgnoredAndBadMessagesChangeNothing() throws {
    let hub = InMemoryBroker()
    let daemon = try DaemonHarness(broker: hub)
    _ = daemon.addTask("Buy milk")
    let before = try ["alice", "bob"].map { try daemon.store($0).operations(since: nil).count }
    let stranger = try Phone(hub: hub, topic: "owntracks/mallory/phone/cmd")
    let tablet = try Phone(hub: hub, topic: "owntracks/bob/tablet/cmd")
    try stranger.client.publish(topic: "owntracks/mallory/phone", payload: Data(daemon.location().utf8))
    try tablet.client.publish(topic: "owntracks/bob/tablet", payload: Data(daemon.location().utf8))
    try tablet.client.publish(topic: "owntracks/alice/phone", payload: Data("{\"_type\":\"location\",\"lat\":\"x\"}".utf8))
    try tablet.client.publish(topic: "owntracks/alice/phone/waypoint", payload: Data("junk".utf8))
    hub.settle()
    hub.settle()
    #expect(stranger.actions.isEmpty && tablet.actions.isEmpty)
    #expect(daemon.links().isEmpty)
    #expect(try ["alice", "bob"].map { try daemon.store($0).operations(since: nil).count } == before)
  }
}
