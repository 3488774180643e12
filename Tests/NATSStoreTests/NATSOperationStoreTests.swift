import Domain
import FileStore
import Foundation
import Locking
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

  /// A worker still finishing a report after its partition moved on:
  /// the other writer already stored a later value, which this one has
  /// not read. Asked on the log as written, its older value is not put back.
  @Test func aConditionalAppendSeesTheOtherWritersLaterValue() throws {
    let server = try NATSServer()
    let location = try NATSLocation("\(server.url);log=shared")
    let late = try NATSOperationStore(location)
    let owner = try NATSOperationStore(location)
    defer {
      late.close()
      owner.close()
    }
    try late.append([.put(.setting(key: "fix", value: "7"))])
    try owner.refresh()
    try owner.append([.put(.setting(key: "fix", value: "9"))])
    #expect(late.state().settings["fix"] == "7", "the late writer has not read the owner's write")
    func append(_ store: NATSOperationStore, _ value: Int) -> Result<[OperationRecord]?, any Error>? {
      let answer = Locked<Result<[OperationRecord]?, any Error>?>(nil)
      let finished = DispatchSemaphore(value: 0)
      store.append([.put(.setting(key: "fix", value: String(value)))], unless: { ($0.settings["fix"].flatMap { Int($0) } ?? 0) >= value }) { result in
        answer.withLock { $0 = result }
        finished.signal()
      }
      _ = finished.wait(timeout: .now() + 30)
      return answer.withLock { $0 }
    }
    let older = append(late, 8)
    #expect(try older?.get() == .some(nil), "superseded once the owner's write was read")
    #expect(late.state().settings["fix"] == "9")
    try owner.refresh()
    #expect(owner.state().settings["fix"] == "9", "the log still holds the later value")
    let newer = append(late, 10)
    #expect(try newer?.get()?.count == 1)
    try owner.refresh()
    #expect(owner.state().settings["fix"] == "10")
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

  /// Four writers on one replicated log, each round's writes started at
  /// once: nats-server 2.9 stores several writes that expected the same
  /// end of the log (#4320; without reading back, 15–18 writes of 600 were
  /// never read by one writer and lost with its snapshot), so each writer
  /// reads back what lies before its own message. Each then holds every
  /// acknowledged write, and so does the snapshot each writes (which
  /// purges the messages before it), as a newcomer reads it.
  @Test func writersAtOnceOnAClusterLoseNoAcknowledgedWrite() throws {
    let cluster = try NATSServer(nodes: 3)
    // Each writer on its own connections, as workers in their own processes
    // are (a process's logs on the same servers share theirs).
    let orders = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    let locations = try orders.map { order in
      try NATSLocation(order.map { "nats://127.0.0.1:\(cluster.ports[$0])" }.joined(separator: ",") + ";log=contended;replicas=3")
    }
    let writers = try locations.map { location in try cluster.whenReady { try NATSOperationStore(location) } }
    let location = locations[0]
    defer { for writer in writers { writer.close() } }
    let acknowledged = Locked<Set<String>>([])
    // Rounds in which every writer starts its write at once, each on a thread of its own.
    let rounds = 150
    let go = writers.map { _ in DispatchSemaphore(value: 0) }
    let done = DispatchSemaphore(value: 0)
    for (index, writer) in writers.enumerated() {
      Thread {
        for count in 0..<rounds {
          go[index].wait()
          let key = "w\(index)-\(count)"
          if (try? writer.append([.put(.setting(key: key, value: "x"))])) != nil { acknowledged.withLock { _ = $0.insert(key) } }
          done.signal()
        }
      }.start()
    }
    for _ in 0..<rounds {
      for semaphore in go { semaphore.signal() }
      for _ in writers { done.wait() }
    }
    let written = acknowledged.withLock { $0 }
    #expect(written.count > 500, "most writes acknowledged: \(written.count)")
    for (index, writer) in writers.enumerated() {
      try writer.refresh()
      let missing = written.subtracting(writer.state().settings.keys)
      #expect(missing.isEmpty, "writer \(index) never read \(missing.count), e.g. \(missing.sorted().prefix(5))")
      try writer.compact()
      let newcomer = try NATSOperationStore(location)
      defer { newcomer.close() }
      let lost = written.subtracting(newcomer.state().settings.keys)
      #expect(lost.isEmpty, "lost after writer \(index)'s snapshot: \(lost.count), e.g. \(lost.sorted().prefix(5))")
    }
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
