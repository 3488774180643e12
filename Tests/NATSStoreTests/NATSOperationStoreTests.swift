import Domain
import FileStore
import Foundation
import NATSStore
import Partitions
import Persistence
import Testing
import TestSupport

/// The `nats:` store against a real nats-server with JetStream.
@Suite(.serialized) struct NATSOperationStoreTests {
  @Test func passesTheStoreConformanceKit() throws {
    let server = try NATSServer()
    var made = 0
    try StoreConformance.verify(
      location: { _ in
        made += 1
        return "\(server.url);log=conformance\(made)"
      },
      open: { try NATSOperationStore(try NATSLocation($0), clock: ManualClock()) })
  }

  @Test func twoWritersOnOneLogStampInOrderAndSeeEachOther() throws {
    let server = try NATSServer()
    let location = try NATSLocation("\(server.url);log=shared")
    let first = try NATSOperationStore(location)
    let second = try NATSOperationStore(location)
    defer {
      first.close()
      second.close()
    }
    #expect(first.replica == second.replica, "one log, one replica id")
    let a = try first.append([.put(.task(Fixtures.task("t1")))])
    // The second has not read the first's write: its publish loses the race, catches up and stamps after it.
    let b = try second.append([.put(.task(Fixtures.task("t2")))])
    #expect(b[0].stamp > a[0].stamp)
    #expect(second.state().tasks.count == 2)
    #expect(try first.operations(since: nil).count == 2, "operations(since:) catches up first")
  }

  @Test func logsOfDifferentPeopleAreApart() throws {
    let server = try NATSServer()
    let alice = try NATSOperationStore(try NATSLocation("\(server.url);log=alice"))
    let bob = try NATSOperationStore(try NATSLocation("\(server.url);log=bob"))
    defer {
      alice.close()
      bob.close()
    }
    try alice.append([.put(.task(Fixtures.task("t1")))])
    #expect(try bob.operations(since: nil).isEmpty)
    #expect(alice.replica != bob.replica)
  }

  @Test func syncsWithAFileStore() throws {
    let server = try NATSServer()
    let directory = TemporaryDirectory()
    let nats = try NATSOperationStore(try NATSLocation("\(server.url);log=sync"))
    let file = try FileOperationStore(directory: directory.file("files"))
    defer {
      nats.close()
      file.close()
    }
    try nats.append([.put(.task(Fixtures.task("t1"))), .put(.place(Fixtures.place("p1")))])
    try file.append([.put(.list(Fixtures.list("g1")))])
    try file.merge(try nats.operations(since: nil))
    try nats.merge(try file.operations(since: nil))
    #expect(nats.state().versions == file.state().versions)
  }

  @Test func anUnreachableServerIsAClearErrorNamingIt() throws {
    let port = try LoopbackPort.free()
    let error = #expect(throws: StoreError.self) { try NATSOperationStore(try NATSLocation("nats://127.0.0.1:\(port)")) }
    #expect(error?.description.contains("127.0.0.1:\(port)") == true, "\(String(describing: error))")
  }

  @Test(arguments: ["127.0.0.1:4222", "nats://h:1;log=a b", "nats://h:1;replicas=9", "nats://h:1;colour=red", "nats://h:1;log"])
  func aMalformedLocationIsRefusedClearly(_ argument: String) {
    #expect(throws: NATSLocation.Invalid.self) { try NATSLocation(argument) }
  }
}

/// Durability: what JetStream acknowledged survives the server being
/// killed, and on a three-node cluster (R3) losing one node.
@Suite(.serialized) struct NATSDurabilityTests {
  @Test func acknowledgedWritesSurviveTheServerBeingKilled() throws {
    let server = try NATSServer()
    let location = try NATSLocation("\(server.url);log=durable")
    let store = try NATSOperationStore(location)
    for index in 0..<20 { try store.append([.put(.task(Fixtures.task("t\(index)")))]) }
    let versions = store.state().versions
    store.close()
    server.kill(0)
    try server.start(0)
    let again = try NATSOperationStore(location)
    defer { again.close() }
    #expect(again.state().versions == versions)
  }

  @Test func aThreeNodeClusterKeepsEveryAcknowledgedWriteWhenANodeDies() throws {
    let cluster = try NATSServer(nodes: 3)
    let location = try NATSLocation("\(cluster.url);log=replicated;replicas=3")
    let store = try cluster.whenReady { try NATSOperationStore(location) }
    for index in 0..<10 { try store.append([.put(.task(Fixtures.task("a\(index)")))]) }
    cluster.kill(1)
    // Two of three still make a quorum: writes go on (after the stream's leader moves, if it was there).
    var written = 0
    for index in 0..<10 {
      for _ in 0..<40 {
        if (try? store.append([.put(.task(Fixtures.task("b\(index)")))])) != nil {
          written += 1
          break
        }
        usleep(250_000)
      }
    }
    #expect(written == 10)
    let versions = store.state().versions
    store.close()
    let again = try NATSOperationStore(location)
    defer { again.close() }
    #expect(again.state().tasks.count == 20)
    #expect(again.state().versions == versions)
  }
}

/// Partition leases in JetStream's key-value store, against a real server.
@Suite(.serialized) struct NATSLeaseStoreTests {
  @Test func passesTheLeaseSuite() throws {
    let server = try NATSServer()
    var made = 0
    try LeaseStoreConformance.verify {
      made += 1
      return try NATSLeaseStore(try NATSLocation("\(server.url);stream=leases\(made)"))
    }
  }

  /// Two workers on two connections to a three-node cluster share the
  /// partitions; a node dies and, once the clients reconnect, the leases
  /// are still there, read and renewed.
  @Test func leasesSurviveANodeOfAThreeNodeClusterDying() throws {
    let cluster = try NATSServer(nodes: 3)
    let location = try NATSLocation("\(cluster.url);stream=cluster;replicas=3")
    let clock = ManualClock(Date(timeIntervalSince1970: 1_780_000_000))
    // A cluster just started may not have chosen its JetStream leader yet.
    let a = try PartitionOwner(worker: "a", partitions: 8, store: try cluster.whenReady { try NATSLeaseStore(location) }, clock: clock)
    let b = try PartitionOwner(worker: "b", partitions: 8, store: try cluster.whenReady { try NATSLeaseStore(location) }, clock: clock)
    for _ in 0..<3 {
      try a.round()
      try b.round()
      clock.advance(by: 5)
    }
    #expect(a.held.count == 4 && b.held.count == 4 && a.held.isDisjoint(with: b.held), "\(a.held.sorted()) \(b.held.sorted())")
    cluster.kill(0)
    // A round that fails while the client reconnects and the bucket's
    // leader is elected again is retried, as a worker's next round would be.
    var rounds = 0
    var failures: [String] = []
    for _ in 0..<40 where rounds < 3 {
      do {
        try a.round()
        try b.round()
        rounds += 1
        clock.advance(by: 5)
      } catch {
        failures.append("\(error)")
        usleep(500_000)
      }
    }
    #expect(rounds == 3, "rounds kept failing: \(failures)")
    #expect(a.held.union(b.held) == Set(0..<8) && a.held.isDisjoint(with: b.held), "\(a.held.sorted()) \(b.held.sorted())")
  }
}
