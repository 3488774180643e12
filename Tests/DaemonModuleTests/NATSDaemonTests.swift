import Foundation
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
}
