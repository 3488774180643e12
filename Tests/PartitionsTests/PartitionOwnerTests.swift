import Domain
import Foundation
import Partitions
import Testing
import TestSupport

/// Workers sharing partitions through leases, in memory.
@Suite struct PartitionOwnerTests {
  @Test func theInMemoryStorePassesTheLeaseSuite() throws {
    try LeaseStoreConformance.verify { InMemoryLeaseStore() }
  }

  /// Three workers over 16 partitions: shares of at most six, all covered.
  @Test func threeWorkersShareFairlyAndCoverEveryPartition() throws {
    let store = InMemoryLeaseStore()
    let clock = ManualClock(Date(timeIntervalSince1970: 1_780_000_000))
    let workers = try ["a", "b", "c"].map { try PartitionOwner(worker: $0, partitions: 16, store: store, clock: clock) }
    for _ in 0..<4 {
      for worker in workers { try worker.round() }
      clock.advance(by: 5)
    }
    let held = workers.map(\.held)
    #expect(held.allSatisfy { $0.count <= 6 }, "\(held.map(\.count))")
    #expect(Set(held.flatMap { $0 }) == Set(0..<16), "\(held.map { $0.sorted() })")
  }

  /// A worker that cannot reach the store stops counting a partition as
  /// its own a third of the lease before it runs out, so what it started
  /// ends before anyone may take the partition.
  @Test func aWorkerCutOffStopsWorkingBeforeItsLeaseEnds() throws {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_780_000_000))
    let worker = try PartitionOwner(worker: "a", partitions: 4, store: InMemoryLeaseStore(), clock: clock, leaseSeconds: 15)
    try worker.round()
    #expect(worker.held.count == 4)
    clock.advance(by: 9)
    #expect(worker.held.count == 4)
    clock.advance(by: 2)
    #expect(worker.held.isEmpty, "4 s of the lease left: no new work")
  }

  /// A worker giving partitions back stops working them at once but
  /// writes them free only at its next round: a fetch its pass began
  /// before the give-back must not reach the consumer the next owner makes.
  @Test func aPartitionGivenBackIsWrittenFreeOnlyAtTheNextRound() throws {
    let store = InMemoryLeaseStore()
    let clock = ManualClock(Date(timeIntervalSince1970: 1_780_000_000))
    let a = try PartitionOwner(worker: "a", partitions: 4, store: store, clock: clock)
    let b = try PartitionOwner(worker: "b", partitions: 4, store: store, clock: clock)
    try a.round()
    try b.round()
    try a.round()
    #expect(a.held.count == 2, "above its share: no new work")
    #expect(try PartitionTable.read(store, partitions: 4, now: clock.now()).workers["a"]?.count == 4, "still a's in the store")
    #expect(a.givingBack.count == 2)
    try b.round()
    #expect(b.held.isEmpty)
    clock.advance(by: 5)
    try a.round()
    #expect(a.givingBack.isEmpty)
    try b.round()
    #expect(b.held.count == 2 && a.held.count == 2 && a.held.isDisjoint(with: b.held))
  }

  /// A survivor learns when a dead worker's leases run out (the soonest
  /// of the others' leases), so it can take them then instead of at its
  /// next scheduled round; its own leases never count.
  @Test func aSurvivorKnowsWhenTheOthersLeasesRunOut() throws {
    let store = InMemoryLeaseStore()
    let clock = ManualClock(Date(timeIntervalSince1970: 1_780_000_000))
    let a = try PartitionOwner(worker: "a", partitions: 8, store: store, clock: clock, leaseSeconds: 15)
    let b = try PartitionOwner(worker: "b", partitions: 8, store: store, clock: clock, leaseSeconds: 15)
    try a.round()
    #expect(a.nextExpiry == nil, "nobody else holds anything")
    try b.round()
    try a.round()
    try a.round()
    // b takes what a gave back for its share.
    let renewed = clock.now()
    try b.round()
    #expect(a.held.count == 4 && b.held.count == 4)
    clock.advance(by: 5)
    try a.round()
    #expect(a.nextExpiry == renewed.addingTimeInterval(15), "b's leases, renewed at its last round")
    // b dies; at the moment its leases lapse one round takes everything.
    clock.advance(by: 10.1)
    try a.round()
    #expect(a.held.count == 8)
    #expect(a.nextExpiry == nil)
  }

  @Test(arguments: ["", "a b", "a.b", String(repeating: "x", count: 65)])
  func aWorkerIdThatCannotBeAKeyIsRefused(id: String) {
    #expect(throws: PartitionOwner.Refusal.self) { try PartitionOwner(worker: id, partitions: 4, store: InMemoryLeaseStore(), clock: ManualClock()) }
  }

  /// The same person always lands in the same partition, and names spread.
  @Test func aPersonStaysInOnePartition() {
    #expect(Partitioning.partition(of: "alice", count: 16) == Partitioning.partition(of: "alice", count: 16))
    let used = Set((0..<200).map { Partitioning.partition(of: "person\($0)", count: 16) })
    #expect(used.count == 16, "\(used.count) of 16 partitions used by 200 names")
  }
}
