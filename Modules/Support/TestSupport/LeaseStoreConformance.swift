import Domain
import Foundation
import Partitions

/// The shared suite every `LeaseStore` passes: compare-and-swap writes
/// (create only once, update only at the revision read, growing
/// revisions), and, driven through it, workers sharing partitions with no
/// partition ever held by two at once: two split them, one dies and the
/// other takes its partitions once the leases run out, a third joins and
/// gets a fair share, a clean stop hands over at once.
public enum LeaseStoreConformance {
  public static func verify(make: () throws -> any LeaseStore) throws {
    try compareAndSwap(try make())
    try sharing(try make())
  }

  static func compareAndSwap(_ store: any LeaseStore) throws {
    let lease = Lease(owner: "a", until: 100)
    let first = try store.put("partition.0", lease, expected: nil)
    try expect(first != nil && first! > 0, "create", "a new key was not written: \(String(describing: first))")
    try expect(try store.put("partition.0", Lease(owner: "b", until: 100), expected: nil) == nil, "create once", "a second create succeeded")
    let read = try store.all()
    try expect(read["partition.0"] == VersionedLease(lease: lease, revision: first!), "read back", "\(read)")
    let second = try store.put("partition.0", Lease(owner: "a", until: 200), expected: first)
    try expect(second != nil && second! > first!, "update", "revision \(String(describing: second)) after \(first!)")
    try expect(try store.put("partition.0", Lease(owner: "b", until: 300), expected: first) == nil, "stale update", "a write at an old revision succeeded")
    let after = try store.all()
    try expect(after["partition.0"]?.lease == Lease(owner: "a", until: 200), "stale update", "\(after)")
  }

  static func sharing(_ store: any LeaseStore) throws {
    let clock = ManualClock(Date(timeIntervalSince1970: 1_780_000_000))
    let partitions = 16
    func worker(_ id: String) throws -> PartitionOwner {
      try PartitionOwner(worker: id, partitions: partitions, store: store, clock: clock, leaseSeconds: 15)
    }
    /// Runs rounds of the living workers 5 s apart, checking after each
    /// that no partition is held twice.
    func rounds(_ workers: [PartitionOwner], _ count: Int) throws {
      for _ in 0..<count {
        for worker in workers { try worker.round() }
        let held = workers.map(\.held)
        let total = held.reduce(0) { $0 + $1.count }
        try expect(Set(held.flatMap { $0 }).count == total, "exclusive", "a partition is held twice: \(held.map { $0.sorted() })")
        clock.advance(by: 5)
      }
    }
    let a = try worker("a")
    let b = try worker("b")
    try rounds([a, b], 4)
    try expect(a.held.count == 8 && b.held.count == 8, "split", "\(a.held.count) and \(b.held.count) of 16")
    // b dies: a takes all once b's leases have run out (15 s), and none before.
    try rounds([a], 1)
    try expect(a.held.count == 8, "no early takeover", "a holds \(a.held.count) while b's leases still run")
    try rounds([a], 4)
    try expect(a.held.count == 16, "takeover", "a holds \(a.held.count) of 16 after b's leases ran out")
    try expect(b.held.isEmpty, "a dead worker's own view", "b still counts \(b.held.count) partitions as its own")
    // c joins: a gives back above its share and c takes it.
    let c = try worker("c")
    try rounds([a, c], 4)
    try expect(a.held.count == 8 && c.held.count == 8, "join", "\(a.held.count) and \(c.held.count) of 16")
    // A clean stop hands over at the others' next round.
    try c.releaseAll()
    try rounds([a], 1)
    try expect(a.held.count == 16, "clean stop", "a holds \(a.held.count) one round after c stopped")
  }
}
