import Domain
import Foundation
import Locking
import NATSStore
import Partitions
import Testing
import TestSupport

/// Phone reports queued on JetStream and worked by partition, against
/// real nats-server processes started by the test.
@Suite(.serialized) struct NATSReportQueueTests {
  @Test func passesTheQueueSuite() throws {
    let server = try NATSServer()
    var made = 0
    try ReportQueueConformance.verify(
      make: {
        made += 1
        return try NATSReportQueue(try NATSLocation("\(server.url);stream=queue\(made)"), partitions: 4)
      },
      reopen: { queue in
        let nats = try #require(queue as? NATSReportQueue)
        return try NATSReportQueue(nats.location, partitions: nats.partitions)
      })
  }

  /// A phone that got no answer (a node was down) sends the same report
  /// again; if the first was stored after all, the second must not be a
  /// second report, or an older fix could land after a newer one.
  @Test func theSameReportSentAgainIsStoredOnce() throws {
    let server = try NATSServer()
    let queue = try NATSReportQueue(try NATSLocation("\(server.url);stream=again"), partitions: 2)
    let body = Data(#"{"_type":"location","lat":60.17,"lon":24.94,"tst":1780000000}"#.utf8)
    let first = try queue.publish(person: "alice", device: "phone", body: body)
    let again = try queue.publish(person: "alice", device: "phone", body: body)
    let other = try queue.publish(person: "alice", device: "phone", body: Data(#"{"_type":"location","lat":60.17,"lon":24.94,"tst":1780000001}"#.utf8))
    let tablet = try queue.publish(person: "alice", device: "tablet", body: body)
    #expect(again.sequence == first.sequence)
    #expect(other.sequence != first.sequence && tablet.sequence != first.sequence && tablet.sequence != other.sequence)
    let fetched = try queue.fetch(partition: first.partition, limit: 10, wait: 1)
    #expect(fetched.map(\.sequence) == [first.sequence, other.sequence, tablet.sequence])
  }

  @Test func theMailboxPassesTheMailboxSuiteAndTwoProcessesShareIt() throws {
    let server = try NATSServer()
    try CommandMailboxConformance.verify { try NATSCommandMailbox(try NATSLocation("\(server.url);stream=mail")) }
    // A worker and a front on their own connections: what one leaves the other collects, once.
    let location = try NATSLocation("\(server.url);stream=shared")
    let worker = try NATSCommandMailbox(location)
    let front = try NATSCommandMailbox(location)
    let other = try NATSCommandMailbox(location)
    try worker.leave([Data("[1]".utf8)], for: "alice")
    try other.leave([Data("[2]".utf8)], for: "alice")
    #expect(try front.collect(for: "alice").map { String(decoding: $0, as: UTF8.self) } == ["[1]", "[2]"])
    #expect(try worker.collect(for: "alice").isEmpty)
  }

  /// Two workers, each with its own connection, share 8 partitions by
  /// leases in the bucket beside the stream; a dies after applying a
  /// batch it did not acknowledge, and b, once a's leases ran out, applies
  /// every report from a's last acknowledged one on, in order.
  @Test func aWorkerTakesOverADeadWorkersPartitionsFromItsLastAcknowledgedReport() throws {
    let server = try NATSServer()
    let location = try NATSLocation("\(server.url);stream=takeover")
    let clock = ManualClock(Date(timeIntervalSince1970: 1_780_000_000))
    let applied = Locked<[(worker: String, report: QueuedReport)]>([])
    func worker(_ id: String) throws -> PartitionWorker {
      let owner = try PartitionOwner(worker: id, partitions: 8, store: try NATSLeaseStore(location), clock: clock)
      return PartitionWorker(owner: owner, queue: try NATSReportQueue(location, partitions: 8)) { report in
        applied.withLock { $0.append((id, report)) }
      }
    }
    let a = try worker("a")
    let b = try worker("b")
    let front = try NATSReportQueue(location, partitions: 8)
    let people = (0..<20).map { "person\($0)" }
    func publish(_ rounds: Range<Int>) throws {
      for round in rounds { for person in people { _ = try front.publish(person: person, body: Data("\(round)".utf8)) } }
    }
    for _ in 0..<3 {
      try a.owner.round()
      try b.owner.round()
      clock.advance(by: 5)
    }
    #expect(a.owner.held.count == 4 && b.owner.held.count == 4)
    try publish(0..<5)
    for _ in 0..<3 {
      _ = try a.pass(wait: 0.2)
      _ = try b.pass(wait: 0.2)
    }
    #expect(applied.withLock { $0.count } == 100)
    // a's last batch: fetched and applied, never acknowledged.
    try publish(5..<8)
    let aPartitions = a.owner.held
    let dying = try NATSReportQueue(location, partitions: 8)
    let unacknowledged = try aPartitions.sorted().flatMap { try dying.fetch(partition: $0, limit: 100, wait: 0.5) }
    #expect(!unacknowledged.isEmpty)
    clock.advance(by: 16)
    try b.owner.round()
    for _ in 0..<3 { _ = try b.pass(wait: 0.3) }
    #expect(b.owner.held.count == 8)
    let reports = applied.withLock { $0.map(\.report) }
    let perPerson = Dictionary(grouping: reports, by: \.person).mapValues { $0.map { String(decoding: $0.body, as: UTF8.self) } }
    #expect(perPerson == Dictionary(uniqueKeysWithValues: people.map { ($0, (0..<8).map(String.init)) }))
    // Only a's unacknowledged batch was fetched twice (by the test, standing in for a); b applied each report once.
    #expect(Set(reports.map(\.sequence)).count == reports.count, "applied twice: \(reports.count - Set(reports.map(\.sequence)).count)")
    #expect(Set(unacknowledged.map(\.sequence)).isSubset(of: reports.map(\.sequence)))
  }

  /// On a three-node cluster with three replicas, a report acknowledged
  /// to its front is still there after a node dies, and the queue goes on.
  @Test func aThreeNodeClusterKeepsEveryQueuedReportWhenANodeDies() throws {
    let cluster = try NATSServer(nodes: 3)
    let location = try NATSLocation("\(cluster.url);stream=replicated;replicas=3")
    let queue = try cluster.whenReady { try NATSReportQueue(location, partitions: 2) }
    var sent: [UInt64] = []
    for index in 0..<10 { sent.append(try queue.publish(person: "alice", body: Data("\(index)".utf8)).sequence) }
    cluster.kill(1)
    for index in 10..<20 {
      for _ in 0..<40 {
        if let report = try? queue.publish(person: "alice", body: Data("\(index)".utf8)) {
          sent.append(report.sequence)
          break
        }
        usleep(250_000)
      }
    }
    #expect(sent.count == 20)
    let partition = Partitioning.partition(of: "alice", count: 2)
    var got: [QueuedReport] = []
    for _ in 0..<40 where got.count < 20 {
      do { got += try queue.fetch(partition: partition, limit: 20, wait: 0.5) } catch {
        // The consumer's leader may be moving: start again from the first unacknowledged.
        try queue.rewind(partition: partition)
        got = []
        usleep(250_000)
      }
    }
    #expect(got.map { String(decoding: $0.body, as: UTF8.self) } == (0..<20).map(String.init))
  }
}
