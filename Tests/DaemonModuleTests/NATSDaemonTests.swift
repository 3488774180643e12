import Composition
import Foundation
import Locking
import MQTT
import NATSStore
import Partitions
import Testing
import TestSupport

/// whilehered on `nats:`: the daemon's journal and each person's log on
/// one JetStream stream, apart, and all there after a restart.
@Suite struct NATSDaemonTests {
  @Test func eachPersonHasTheirOwnLogAndItOutlivesARestart() throws {
    let server = try NATSServer()
    let store = "nats:\(server.url);stream=daemon"
    var id: String?
    do {
      let daemon = try DaemonHarness(store: store)
      id = daemon.addTask("Buy milk")
      #expect(daemon.addTask("Post letters", as: "bob") != nil)
      #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 3000)).status == 200, "a report is journalled on NATS")
    }
    let again = try DaemonHarness(store: store)
    let tasks = again.json(again.send("GET", "/api/v1/tasks")) as? [[String: Any]]
    #expect(tasks?.map { $0["title"] as? String } == ["Buy milk"], "alice sees only her own, after the restart")
    #expect(tasks?.first?["id"] as? String == id)
    let status = again.json(again.send("GET", "/api/v1/status")) as? [String: Any]
    #expect(status?["lastFix"] != nil, "the journalled fix came back from NATS")
  }
}

/// whilehered as a worker of a cluster on a real nats-server
/// (`cluster.nats`): the report queue, leases and mailbox on JetStream,
/// people's logs on the same servers.
@Suite struct NATSClusterDaemonTests {
  @Test func aWorkerOnNATSAppliesQueuedReportsAndAnswersWithTheWaypointsItLeft() throws {
    let server = try NATSServer()
    let daemon = try DaemonHarness(extra: #", "cluster": {"nats": "\#(server.url);stream=work", "worker": "w1", "partitions": 4}"#, store: "nats:\(server.url);stream=people")
    #expect(ClusterWorkerTests.until { daemon.host.clusterPartitions.count == 4 })
    _ = try #require(daemon.addTask("Buy milk"))
    #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 2000)).status == 200)
    #expect(ClusterWorkerTests.until { daemon.host.clusterApplied == 1 })
    let answer = String(decoding: daemon.send("POST", "/owntracks", body: daemon.location(north: 1990)).body, as: UTF8.self)
    #expect(answer.contains("setWaypoints"), "\(answer)")
    #expect(ClusterWorkerTests.until { daemon.host.clusterApplied == 2 })
  }

  /// OwnTracks in MQTT mode pointed at nats-server's own MQTT listener,
  /// set up as `whilehere cluster mqtt` does: the server's mapping files
  /// the phone's report on its partition, the worker applies it, and the
  /// waypoints reach the phone's `cmd` topic through the worker's MQTT
  /// client on the same listener. No front. Each person publishes only as
  /// themselves; the workers log in with their own token.
  @Test func aPhoneOnNATSsOwnMQTTListenerIsServedWithNoFront() throws {
    let mqtt = try LoopbackPort.free()
    let tokens = ["whilehere": "worker-token", "alice": "alice-token", "bob": "bob-token"]
    let configuration = try NATSMQTTAccess.configuration(
      stream: "work", partitions: 4, port: mqtt, workers: .init(name: "whilehere", passwordHash: try NATSMQTTAccess.hash(tokens["whilehere"]!)),
      people: try ["alice", "bob"].map { .init(name: $0, passwordHash: try NATSMQTTAccess.hash(tokens[$0]!)) })
    let server = try NATSServer { _ in configuration }
    let servers = server.url.replacingOccurrences(of: "nats://", with: "nats://whilehere:worker-token@")
    let daemon = try DaemonHarness(
      extra: #", "cluster": {"nats": "\#(servers);stream=work", "worker": "w1", "partitions": 4}, "mqtt": {"host": "127.0.0.1", "port": \#(mqtt), "user": "whilehere", "password": "worker-token"}"#,
      store: "nats:\(servers);stream=people")
    #expect(ClusterWorkerTests.until { daemon.host.clusterPartitions.count == 4 })
    _ = try #require(daemon.addTask("Buy milk"))
    let commands = Locked<[String]>([])
    let phone = MosquittoBroker(options: .init(host: "127.0.0.1", port: mqtt, user: "alice", password: "alice-token", clientID: "alice-phone"))
    try phone.connect(subscriptions: ["owntracks/alice/phone/cmd"]) { _, payload in commands.withLock { $0.append(String(decoding: payload, as: UTF8.self)) } }
    defer { phone.disconnect() }
    // bob's login cannot report as alice: nats-server refuses the publish.
    let bobsPhone = MosquittoBroker(options: .init(host: "127.0.0.1", port: mqtt, user: "bob", password: "bob-token", clientID: "bob-phone"))
    try bobsPhone.connect(subscriptions: []) { _, _ in }
    defer { bobsPhone.disconnect() }
    try bobsPhone.publish(topic: "owntracks/alice/phone", payload: Data(daemon.location(north: 100).utf8))
    try phone.publish(topic: "owntracks/alice/phone", payload: Data(daemon.location(north: 2000).utf8))
    #expect(ClusterWorkerTests.until { daemon.host.clusterApplied == 1 }, "the worker applied the report NATS filed")
    #expect(ClusterWorkerTests.until { commands.withLock { $0 }.contains { $0.contains("setWaypoints") } }, "\(commands.withLock { $0 })")
    try phone.publish(topic: "owntracks/alice/phone", payload: Data(daemon.location(north: 1990).utf8))
    #expect(ClusterWorkerTests.until { daemon.host.clusterApplied >= 2 })
    #expect(daemon.host.clusterApplied == 2, "bob's publish as alice, sent first, was never queued")
  }
}

/// Two workers on people's logs in NATS (queue, leases and mailbox in
/// memory): a task added through one worker's API reaches the engine of
/// the worker that takes the person's partition, which reads the
/// person's log afresh when it takes it.
@Suite struct NATSClusterTakeoverTests {
  /// Two workers on `store` (queue, leases and mailbox in memory): a holds
  /// every partition, b none yet; `user` is the one of alice and bob that b
  /// will take (a gives back its highest partitions).
  static func twoWorkers(on store: String) throws -> (a: DaemonHarness, b: DaemonHarness, user: String) {
    let ports = ClusterWorkerTests.ports()
    // Leases of two minutes, renewed every 40 s: the clocks below jump 45 s at once.
    let a = try DaemonHarness(extra: #", "cluster": {"worker": "a", "lease": 120}"#, store: store) { $0.cluster = ports }
    #expect(ClusterWorkerTests.until { a.host.clusterPartitions.count == 8 })
    let user = ["alice", "bob"].first { Partitioning.partition(of: $0, count: 8) >= 4 } ?? "alice"
    let b = try DaemonHarness(extra: #", "cluster": {"worker": "b", "lease": 120}"#, store: store, directory: TemporaryDirectory()) { $0.cluster = ports }
    #expect(ClusterWorkerTests.until { ClusterWorkerTests.hasRunARound(b) })
    #expect(ClusterWorkerTests.until { a.host.clusterPartitions.count == 8 } && b.host.clusterPartitions.isEmpty)
    return (a, b, user)
  }

  /// A round of a's after a third of the lease gives back half, the
  /// next writes it free; then one of b's takes it, the user's partition among them.
  static func split(_ a: DaemonHarness, _ b: DaemonHarness, user: String) throws {
    try ClusterWorkerTests.giveBack(a, by: 45)
    b.clock.advance(by: 90)
    #expect(ClusterWorkerTests.until { b.host.clusterPartitions.count == 4 })
    try #require(b.host.clusterPartitions.contains(Partitioning.partition(of: user, count: 8)))
  }

  @Test func aWorkerTakingAPartitionReadsWhatAnotherWroteForItsPeople() throws {
    let server = try NATSServer()
    let (a, b, user) = try Self.twoWorkers(on: "nats:\(server.url);stream=shared")
    // b has read the user's log already; a serves them and adds a task b has not seen.
    _ = try #require(a.addTask("Buy milk", as: user))
    try Self.split(a, b, user: user)
    // The phone arrives; a's front queues it, b applies it with the task a's API added.
    for north in [0.0, 0, 0] {
      a.clock.advance(by: 10)
      b.clock.advance(by: 10)
      let response = a.send("POST", "/owntracks", body: a.location(north: north), as: user, headers: ["X-Limit-D": "phone"])
      #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
    }
    #expect(ClusterWorkerTests.until { b.host.clusterApplied == 3 }, "a applied \(a.host.clusterApplied), b \(b.host.clusterApplied); \(user)")
    let fired = (try? String(contentsOfFile: b.reminders, encoding: .utf8)) ?? ""
    #expect(fired.contains("Buy milk"), "b's engine never saw the task a added: \(fired)")
  }

  /// A task added through the API of a front that does not own the
  /// person reaches the owner's engine before the phone's next report:
  /// the front queues the change on the person's partition.
  @Test func aTaskAddedThroughAnotherFrontReachesTheOwnersEngineAtOnce() throws {
    let server = try NATSServer()
    let (a, b, user) = try Self.twoWorkers(on: "nats:\(server.url);stream=changes")
    try Self.split(a, b, user: user)
    // b plans for the user first, without the task.
    #expect(a.send("POST", "/owntracks", body: a.location(north: 3000), as: user, headers: ["X-Limit-D": "phone"]).status == 200)
    #expect(ClusterWorkerTests.until { b.host.clusterApplied == 1 })
    _ = try #require(a.addTask("Buy milk", as: user))
    for _ in 0..<3 {
      a.clock.advance(by: 10)
      b.clock.advance(by: 10)
      #expect(a.send("POST", "/owntracks", body: a.location(), as: user, headers: ["X-Limit-D": "phone"]).status == 200)
    }
    #expect(ClusterWorkerTests.until { b.host.clusterApplied == 5 }, "b applied \(b.host.clusterApplied): the change and four reports")
    let fired = (try? String(contentsOfFile: b.reminders, encoding: .utf8)) ?? ""
    #expect(fired.contains("Buy milk"), "b's engine never saw the task added through a: \(fired)")
  }

  /// A reminder a worker fired to a receiver that was down when it
  /// stopped is sent by the worker that takes the person's partition,
  /// once, and the report that fired it is not applied again.
  @Test func aReminderAStoppedWorkerCouldNotDeliverIsSentByTheNextOwner() throws {
    let server = try NATSServer()
    let ports = ClusterWorkerTests.ports()
    let store = "nats:\(server.url);stream=outbox"
    let extra = #", "cluster": {"worker": "WORKER", "lease": 120}"#
    func held(_ sink: HeldNotificationSink) -> ProviderRegistry {
      var registry = ProviderRegistry.standard
      registry.notify["held"] = NotifyFactory(summary: "a receiver that is down until the test says") { _ in (sink, nil) }
      return registry
    }
    let down = HeldNotificationSink(name: "held")
    let a = try DaemonHarness(extra: extra.replacingOccurrences(of: "WORKER", with: "a"), notify: ["held"], store: store, registry: held(down)) { $0.cluster = ports }
    #expect(ClusterWorkerTests.until { a.host.clusterPartitions.count == 8 })
    let back = HeldNotificationSink(name: "held")
    let b = try DaemonHarness(
      extra: extra.replacingOccurrences(of: "WORKER", with: "b"), notify: ["held"], store: store, directory: TemporaryDirectory(), registry: held(back)
    ) { $0.cluster = ports }
    _ = try #require(a.addTask("Buy milk"))
    for _ in 0..<3 {
      a.clock.advance(by: 10)
      b.clock.advance(by: 10)
      #expect(a.send("POST", "/owntracks", body: a.location()).status == 200)
    }
    #expect(ClusterWorkerTests.until { a.host.clusterApplied == 3 })
    #expect(down.ids.count == 1 && back.ids.isEmpty)
    a.host.stop(drainSeconds: 0)
    b.clock.advance(by: 45)
    #expect(ClusterWorkerTests.until { b.host.clusterPartitions.count == 8 })
    #expect(ClusterWorkerTests.until { back.ids == down.ids }, "b sent \(back.ids), a had held \(down.ids)")
    #expect(b.host.clusterApplied == 0, "the reports a applied are not applied again")
  }
}
