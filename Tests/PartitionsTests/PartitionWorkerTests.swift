import Domain
import Foundation
import Locking
import Partitions
import Testing
import TestSupport

/// Workers applying the reports of the partitions they hold, in memory.
@Suite struct PartitionWorkerTests {
  @Test func theInMemoryQueuePassesTheQueueSuite() throws {
    try ReportQueueConformance.verify(make: { InMemoryReportQueue(partitions: 8) }, reopen: { $0 })
  }

  @Test func theInMemoryMailboxPassesTheMailboxSuite() throws {
    try CommandMailboxConformance.verify { InMemoryCommandMailbox() }
  }

  /// What was applied, by whom, in order.
  final class Applied: Sendable {
    let log = Locked<[(worker: String, report: QueuedReport)]>([])
    func record(_ worker: String) -> @Sendable (QueuedReport) throws -> Void {
      { report in self.log.withLock { $0.append((worker, report)) } }
    }
    var reports: [QueuedReport] { log.withLock { $0.map(\.report) } }
  }

  struct Fixture {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_780_000_000))
    let leases = InMemoryLeaseStore()
    let queue = InMemoryReportQueue(partitions: 8)
    let applied = Applied()
    let people = (0..<20).map { "person\($0)" }

    func worker(_ id: String) throws -> PartitionWorker {
      let owner = try PartitionOwner(worker: id, partitions: 8, store: leases, clock: clock)
      return PartitionWorker(owner: owner, queue: queue, batch: 16, apply: applied.record(id))
    }

    func publish(_ rounds: Range<Int>) throws {
      for round in rounds { for person in people { _ = try queue.publish(person: person, body: Data("\(round)".utf8)) } }
    }

    /// Each person's reports in the order they were applied.
    func perPerson(_ reports: [QueuedReport]) -> [String: [String]] {
      Dictionary(grouping: reports, by: \.person).mapValues { $0.map { String(decoding: $0.body, as: UTF8.self) } }
    }
  }

  /// Two workers, reports arriving between passes: the second worker's
  /// share is handed over as it joins; every report is applied once, each
  /// person's in order, and the last partitions are split 4/4.
  @Test func twoWorkersApplyEveryReportOnceInEachPersonsOrder() throws {
    let f = Fixture()
    let a = try f.worker("a")
    let b = try f.worker("b")
    for step in 0..<4 {
      try f.publish(step * 2..<step * 2 + 2)
      try a.owner.round()
      try b.owner.round()
      _ = try a.pass()
      _ = try b.pass()
      f.clock.advance(by: 5)
    }
    #expect(a.partitions.count == 4 && b.partitions.count == 4 && a.partitions.isDisjoint(with: b.partitions))
    let sequences = f.applied.reports.map(\.sequence)
    #expect(sequences.count == 160 && Set(sequences).count == 160 && f.queue.unacknowledged == 0)
    #expect(f.perPerson(f.applied.reports) == Dictionary(uniqueKeysWithValues: f.people.map { ($0, (0..<8).map(String.init)) }))
    #expect(Set(f.applied.log.withLock { $0.map(\.worker) }) == ["a", "b"])
  }

  /// a dies after applying a batch and before acknowledging it: b takes
  /// its partitions once the leases run out and applies what a had not
  /// acknowledged first, in order; nothing is lost, and only what a
  /// applied unacknowledged is applied twice.
  @Test func aDeadWorkersPartitionsAreTakenOverFromTheLastAcknowledgedReport() throws {
    let f = Fixture()
    let a = try f.worker("a")
    let b = try f.worker("b")
    for _ in 0..<3 {
      try a.owner.round()
      try b.owner.round()
      f.clock.advance(by: 5)
    }
    let aPartitions = a.owner.held
    try f.publish(0..<5)
    _ = try a.pass()
    _ = try b.pass()
    // a fetches and applies more, and dies before acknowledging them.
    try f.publish(5..<8)
    let dying = Applied()
    let unacknowledged = try aPartitions.sorted().flatMap { try f.queue.fetch(partition: $0, limit: 100, wait: 0) }
    for report in unacknowledged { try dying.record("a")(report) }
    #expect(!unacknowledged.isEmpty)
    // b takes nothing while a's leases run, then everything.
    try b.owner.round()
    #expect(try b.pass().taken.isEmpty)
    f.clock.advance(by: 16)
    try b.owner.round()
    let takeover = try b.pass()
    #expect(Set(takeover.taken) == aPartitions)
    _ = try b.pass()
    #expect(f.queue.unacknowledged == 0)
    #expect(f.perPerson(f.applied.reports) == Dictionary(uniqueKeysWithValues: f.people.map { ($0, (0..<8).map(String.init)) }))
    let twice = Set(f.applied.reports.map(\.sequence)).intersection(dying.reports.map(\.sequence))
    #expect(twice == Set(unacknowledged.map(\.sequence)), "only what a applied and did not acknowledge comes again")
  }

  /// A partition whose rewind failed (the queue out of reach) is rewound
  /// again at the next pass before any of its reports is applied.
  @Test func aFailedRewindIsTriedAgainBeforeThePartitionIsWorked() throws {
    let f = Fixture()
    let flaky = FlakyRewinds(f.queue)
    let applied = Applied()
    let owner = try PartitionOwner(worker: "a", partitions: 8, store: f.leases, clock: f.clock)
    let worker = PartitionWorker(owner: owner, queue: flaky, apply: applied.record("a"))
    try owner.round()
    _ = try f.queue.publish(person: "alice", body: Data("0".utf8))
    #expect(throws: QueueRefusal.self) { try worker.pass() }
    #expect(applied.reports.isEmpty && worker.partitions.isEmpty)
    let second = try worker.pass()
    #expect(second.taken.count == 8 && second.applied == 1 && flaky.rewinds.withLock { $0 } == 9)
  }

  final class FlakyRewinds: ReportQueue {
    let inner: InMemoryReportQueue
    let rewinds = Locked(0)
    init(_ inner: InMemoryReportQueue) { self.inner = inner }
    var partitions: Int { inner.partitions }
    func publish(person: String, device: String, body: Data) throws -> QueuedReport { try inner.publish(person: person, device: device, body: body) }
    func fetch(partition: Int, limit: Int, wait: TimeInterval) throws -> [QueuedReport] { try inner.fetch(partition: partition, limit: limit, wait: wait) }
    func acknowledge(partition: Int, through sequence: UInt64) throws { try inner.acknowledge(partition: partition, through: sequence) }
    func rewind(partition: Int) throws {
      let count = rewinds.withLock { count in
        count += 1
        return count
      }
      if count == 1 { throw QueueRefusal(description: "the queue is out of reach") }
      try inner.rewind(partition: partition)
    }
  }

  /// A partition that cannot be fetched (its consumer's leader being
  /// elected) holds back no other partition in that pass, and is rewound
  /// so what it had been handed comes again at once, not after the
  /// queue's redelivery deadline.
  @Test func aPartitionOutOfReachHoldsBackNoOtherAndIsRewound() throws {
    let f = Fixture()
    let blocked = Partitioning.partition(of: "alice", count: 8)
    let other = f.people.first { Partitioning.partition(of: $0, count: 8) != blocked }!
    let flaky = FlakyFetches(f.queue, failing: blocked)
    let applied = Applied()
    let owner = try PartitionOwner(worker: "a", partitions: 8, store: f.leases, clock: f.clock)
    let worker = PartitionWorker(owner: owner, queue: flaky, apply: applied.record("a"))
    try owner.round()
    _ = try worker.pass()
    _ = try f.queue.publish(person: "alice", body: Data("0".utf8))
    _ = try f.queue.publish(person: other, body: Data("0".utf8))
    let rewoundBefore = flaky.rewinds.withLock { $0 }
    let first = try worker.pass()
    #expect(first.applied == 1 && f.perPerson(applied.reports) == [other: ["0"]], "\(first)")
    #expect(first.failures.count == 1 && first.failures[0].contains("partition \(blocked)") && first.failures[0].contains("out of reach"))
    #expect(flaky.rewinds.withLock { $0 } == rewoundBefore + [blocked])
    let second = try worker.pass()
    #expect(second.applied == 1 && second.failures.isEmpty && f.perPerson(applied.reports) == [other: ["0"], "alice": ["0"]])
  }

  /// Fetches of one partition fail the first time they are tried after
  /// reports are waiting there.
  final class FlakyFetches: ReportQueue {
    let inner: InMemoryReportQueue
    let failing: Int
    let rewinds = Locked<[Int]>([])
    let failed = Locked(false)
    init(_ inner: InMemoryReportQueue, failing: Int) {
      self.inner = inner
      self.failing = failing
    }
    var partitions: Int { inner.partitions }
    func publish(person: String, device: String, body: Data) throws -> QueuedReport { try inner.publish(person: person, device: device, body: body) }
    func fetch(partition: Int, limit: Int, wait: TimeInterval) throws -> [QueuedReport] {
      let reports = try inner.fetch(partition: partition, limit: limit, wait: wait)
      if partition == failing, !reports.isEmpty, !failed.withLock({ $0 }) {
        failed.withLock { $0 = true }
        throw QueueRefusal(description: "the consumer is out of reach")
      }
      return reports
    }
    func acknowledge(partition: Int, through sequence: UInt64) throws { try inner.acknowledge(partition: partition, through: sequence) }
    func rewind(partition: Int) throws {
      rewinds.withLock { $0.append(partition) }
      try inner.rewind(partition: partition)
    }
  }

  /// A report that cannot be applied now is not acknowledged: it and the
  /// reports behind it come again, in order, at the next pass.
  @Test func aReportThatFailsToApplyComesAgainWithThoseBehindIt() throws {
    let f = Fixture()
    let failing = Locked(true)
    let applied = Applied()
    let owner = try PartitionOwner(worker: "a", partitions: 8, store: f.leases, clock: f.clock)
    let worker = PartitionWorker(owner: owner, queue: f.queue) { report in
      if String(decoding: report.body, as: UTF8.self) == "2", failing.withLock({ $0 }) {
        throw QueueRefusal(description: "the store is out of reach")
      }
      try applied.record("a")(report)
    }
    try owner.round()
    for round in 0..<5 { _ = try f.queue.publish(person: "alice", body: Data("\(round)".utf8)) }
    let first = try worker.pass()
    #expect(first.applied == 2 && first.failures.count == 1 && first.failures[0].contains("out of reach"))
    failing.withLock { $0 = false }
    #expect(try worker.pass().applied == 3)
    #expect(f.perPerson(applied.reports) == ["alice": ["0", "1", "2", "3", "4"]])
    #expect(f.queue.unacknowledged == 0)
  }

  /// A lease that ends in the middle of a batch stops it there: what
  /// follows is left to the next owner, unacknowledged, and is no failure.
  @Test func aLeaseLostMidBatchStopsTheBatchWithoutAFailure() throws {
    let f = Fixture()
    let applied = Applied()
    let owner = try PartitionOwner(worker: "a", partitions: 8, store: f.leases, clock: f.clock)
    let worker = PartitionWorker(owner: owner, queue: f.queue) { report in
      try applied.record("a")(report)
      // Given back after the second: another worker may take it now.
      if String(decoding: report.body, as: UTF8.self) == "1" { try owner.releaseAll() }
    }
    try owner.round()
    for round in 0..<5 { _ = try f.queue.publish(person: "alice", body: Data("\(round)".utf8)) }
    let pass = try worker.pass()
    #expect(pass.applied == 2 && pass.failures.isEmpty, "\(pass)")
    #expect(f.perPerson(applied.reports) == ["alice": ["0", "1"]])
    #expect(f.queue.unacknowledged == 3)
  }

  /// A batch applied at once (steps under way together) that could apply
  /// only its first reports: those are acknowledged, the rest come again
  /// in order, and the report that failed is named.
  @Test func aBatchAppliedInPartIsAcknowledgedThroughItsLastAppliedReport() throws {
    let f = Fixture()
    let failing = Locked(true)
    let batches = Locked<[[String]]>([])
    let owner = try PartitionOwner(worker: "a", partitions: 8, store: f.leases, clock: f.clock)
    let worker = PartitionWorker(owner: owner, queue: f.queue) { (reports: [QueuedReport]) -> (applied: Int, failure: (any Error)?) in
      let bodies = reports.map { String(decoding: $0.body, as: UTF8.self) }
      batches.withLock { $0.append(bodies) }
      if failing.withLock({ $0 }), let stop = bodies.firstIndex(of: "2") { return (stop, QueueRefusal(description: "the journal is out of reach")) }
      return (reports.count, nil)
    }
    try owner.round()
    for round in 0..<5 { _ = try f.queue.publish(person: "alice", body: Data("\(round)".utf8)) }
    let first = try worker.pass()
    #expect(first.applied == 2 && first.failures.count == 1)
    #expect(first.failures.first?.contains("out of reach") == true && first.failures.first?.contains("report 3 ") == true, "\(first.failures)")
    failing.withLock { $0 = false }
    #expect(try worker.pass().applied == 3)
    #expect(batches.withLock { $0 } == [["0", "1", "2", "3", "4"], ["2", "3", "4"]])
    #expect(f.queue.unacknowledged == 0)
  }
}
