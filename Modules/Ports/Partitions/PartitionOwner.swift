import Domain
import Foundation
import Locking

/// One worker's side of sharing a fixed set of partitions with the others
/// through a lease store, with no coordinator. Each `round` (run it well
/// within `leaseSeconds`, e.g. every third of it):
///
/// 1. renews the worker's presence (`worker.ID`), which is how the others
///    count it;
/// 2. renews the partitions it holds; one whose compare-and-swap fails was
///    taken by someone else and is dropped;
/// 3. works out its fair share, the partitions divided by the workers
///    present, rounded up;
/// 4. gives back what it holds above that share (the highest first), so a
///    worker that joins finds partitions to take: at once it stops
///    counting them as held (no new work starts on them), and it writes
///    them free only at its next round, so a fetch its passes began
///    before cannot reach the consumer the next owner makes;
/// 5. takes free or expired partitions up to its share.
///
/// A worker that dies stops renewing: its partitions are free when its
/// leases run out, and the others take them at their next round. `held`
/// counts only leases with a third of their time left by this worker's
/// own clock, so a worker that cannot reach the store stops starting work
/// on a partition before its lease ends and anyone else may take it
/// (clocks agreeing to within the time between rounds), and what it
/// started has that third to finish.
public final class PartitionOwner: Sendable {
  public let worker: String
  public let partitions: Int
  public let leaseSeconds: Double
  private let store: any LeaseStore
  private let clock: any WallClock
  private let mine = Locked<[Int: (revision: UInt64, until: Double)]>([:])
  private let soonestExpiry = Locked<Date?>(nil)
  /// Partitions given up at the last round, not held any more, whose
  /// leases are written free at the next (with the revision last written).
  private let leaving = Locked<[Int: UInt64]>([:])

  public struct Refusal: Error, CustomStringConvertible {
    public let description: String
  }

  public init(worker: String, partitions: Int, store: any LeaseStore, clock: any WallClock, leaseSeconds: Double = 15) throws {
    guard !worker.isEmpty, worker.utf8.count <= 64,
      worker.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
    else { throw Refusal(description: "worker id '\(worker)' must be 1-64 letters, digits, '-' or '_'") }
    guard partitions > 0, partitions <= 4096 else { throw Refusal(description: "partitions must be 1-4096, not \(partitions)") }
    guard leaseSeconds > 0 else { throw Refusal(description: "the lease must last longer than 0 s") }
    self.worker = worker
    self.partitions = partitions
    self.store = store
    self.clock = clock
    self.leaseSeconds = leaseSeconds
  }

  /// The partitions this worker may start work on now: held, with more
  /// than a third of the lease left. Work started (a batch's steps under
  /// way) must end before the lease does, when another worker may take the
  /// partition and apply its unacknowledged reports again; rounds every
  /// third of the lease keep two thirds ahead when they run on time.
  public var held: Set<Int> {
    let now = clock.now().timeIntervalSince1970 + leaseSeconds / 3
    return Set(mine.withLock { $0.filter { $0.value.until > now }.keys })
  }

  /// Partitions given back at the last round and not yet written free
  /// (the next round does): no longer held, not yet anyone else's.
  public var givingBack: Set<Int> { Set(leaving.withLock { $0.keys }) }

  /// When the first lease another worker holds (a partition, or its
  /// presence) runs out, as the last round read them, unless renewed: a
  /// round then takes what a dead worker held without waiting for the
  /// next scheduled one. Nil when the last round failed or nobody else
  /// holds anything.
  public var nextExpiry: Date? { soonestExpiry.withLock { $0 } }

  /// One round of renewing, giving back and taking (see the type's
  /// comment); the partitions held after it.
  @discardableResult
  public func round() throws -> Set<Int> {
    let now = clock.now()
    let until = now.timeIntervalSince1970 + leaseSeconds
    soonestExpiry.withLock { $0 = nil }
    let table = try store.all()
    let presence = Partitioning.workerKey(worker)
    guard try store.put(presence, Lease(owner: worker, until: until), expected: table[presence]?.revision) != nil else {
      throw Refusal(description: "another worker wrote '\(presence)' at the same moment: two workers share the id '\(worker)'")
    }
    var owned = mine.withLock { $0 }
    for partition in owned.keys.sorted() {
      let key = Partitioning.partitionKey(partition)
      if let current = table[key], current.lease.owner == worker,
        let revision = try store.put(key, Lease(owner: worker, until: until), expected: current.revision)
      {
        owned[partition] = (revision, until)
      } else {
        owned[partition] = nil
      }
    }
    // Given up a round ago: no work has started on them since.
    for (partition, revision) in leaving.withLock({ $0 }) {
      _ = try store.put(Partitioning.partitionKey(partition), Lease(owner: "", until: 0), expected: revision)
      leaving.withLock { _ = $0.removeValue(forKey: partition) }
    }
    var present: Set<String> = [worker]
    for (key, entry) in table where key.hasPrefix("worker.") && entry.lease.isHeld(at: now) { present.insert(entry.lease.owner) }
    let share = (partitions + present.count - 1) / present.count
    for partition in owned.keys.sorted(by: >) where owned.count > share {
      if let revision = owned[partition]?.revision { leaving.withLock { $0[partition] = revision } }
      owned[partition] = nil
    }
    for partition in 0..<partitions where owned.count < share && owned[partition] == nil {
      let key = Partitioning.partitionKey(partition)
      let current = table[key]
      if let current, current.lease.isHeld(at: now) { continue }
      if let revision = try store.put(key, Lease(owner: worker, until: until), expected: current?.revision) {
        owned[partition] = (revision, until)
      }
    }
    mine.withLock { $0 = owned }
    let others = table.values.filter { $0.lease.owner != worker && $0.lease.isHeld(at: now) }.map(\.lease.until).min()
    soonestExpiry.withLock { $0 = others.map { Date(timeIntervalSince1970: $0) } }
    return held
  }

  /// A clean stop: gives every partition and the presence back at once, so
  /// the others take them at their next round instead of after the lease.
  public func releaseAll() throws {
    let owned = mine.withLock { mine in
      defer { mine = [:] }
      return mine.mapValues(\.revision)
    }
    let left = leaving.withLock { leaving in
      defer { leaving = [:] }
      return leaving
    }
    for (partition, revision) in owned.merging(left, uniquingKeysWith: { held, _ in held }) {
      _ = try store.put(Partitioning.partitionKey(partition), Lease(owner: "", until: 0), expected: revision)
    }
    let presence = Partitioning.workerKey(worker)
    if let current = try store.all()[presence] {
      _ = try store.put(presence, Lease(owner: "", until: 0), expected: current.revision)
    }
  }
}
