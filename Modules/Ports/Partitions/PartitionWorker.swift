import Foundation
import Locking

/// What a worker does with the partitions its `PartitionOwner` holds:
/// takes their reports out of the `ReportQueue` in order, hands each to
/// `apply` and acknowledges them once applied. The owner's lease rounds
/// run on their own schedule (`PartitionOwner.round`); each `pass` works
/// the partitions held at that moment.
///
/// `apply` returns once a report's effects are durable (the person's
/// store written, a reminder recorded before it is delivered). It throws
/// only when that could not be done now (a store out of reach): the report
/// is then not acknowledged and comes again, with those after it behind
/// it, in order. A report that can never be applied (malformed) must be
/// answered by `apply` itself, not thrown, or it would hold its
/// partition back for good.
///
/// Delivery is at least once: a worker that dies after applying a report
/// and before acknowledging it leaves it to the next owner, which applies
/// it again; `QueuedReport.sequence` is the stable id that lets `apply`
/// tell.
public final class PartitionWorker: Sendable {
  public let owner: PartitionOwner
  private let queue: any ReportQueue
  private let batch: Int
  private let apply: ApplyBatch
  private let working = Locked<Set<Int>>([])
  /// Held partitions whose rewind after a failure failed too: rewound
  /// before their next fetch.
  private let unwound = Locked<Set<Int>>([])

  /// Applies one partition's reports, in order, as `apply` does each
  /// (several may be under way at once: different people's steps, a
  /// store's group commit); answers how many from the first were applied
  /// and, when not all, why the next one could not be (nil: it stopped
  /// because the partition's lease ran out). The reports after it come
  /// again, so an answer may leave later ones applied: the sequence lets
  /// them be known.
  public typealias ApplyBatch = @Sendable ([QueuedReport]) -> (applied: Int, failure: (any Error)?)

  /// What one pass did.
  public struct Pass: Equatable, Sendable {
    public var applied = 0
    /// Partitions newly held (rewound before their first fetch) and let go.
    public var taken: [Int] = []
    public var dropped: [Int] = []
    /// Each report that could not be applied, and each partition that
    /// could not be fetched or acknowledged, and why.
    public var failures: [String] = []
  }

  public init(owner: PartitionOwner, queue: any ReportQueue, batch: Int = 64, applyBatch: @escaping ApplyBatch) {
    precondition(owner.partitions == queue.partitions, "the owner and the queue must agree on the partitions")
    self.owner = owner
    self.queue = queue
    self.batch = max(1, batch)
    self.apply = applyBatch
  }

  /// Reports applied one at a time, each durable before the next, and
  /// none once the partition's lease ran out (another worker may own it now).
  public convenience init(owner: PartitionOwner, queue: any ReportQueue, batch: Int = 64, apply: @escaping @Sendable (QueuedReport) throws -> Void) {
    self.init(owner: owner, queue: queue, batch: batch) { reports in
      for (index, report) in reports.enumerated() {
        guard owner.held.contains(report.partition) else { return (index, nil) }
        do { try apply(report) } catch { return (index, error) }
      }
      return (reports.count, nil)
    }
  }

  /// The partitions the last pass worked.
  public var partitions: Set<Int> { working.withLock { $0 } }

  /// One pass over the partitions held now, fetching up to `batch` of
  /// each; `wait` seconds in all may be spent waiting for reports.
  /// `taking` hears of partitions newly held before any of their reports
  /// is applied (a worker reads what their previous owner wrote).
  public func pass(wait: TimeInterval = 0, taking: ([Int]) -> Void = { _ in }) throws -> Pass {
    let held = owner.held
    var result = Pass()
    let before = working.withLock { $0 }
    result.taken = held.subtracting(before).sorted()
    result.dropped = before.subtracting(held).sorted()
    // What the previous owner fetched and did not acknowledge comes first.
    // Counted as worked only once rewound: a rewind that failed is tried
    // again at the next pass.
    for partition in result.taken { try queue.rewind(partition: partition) }
    working.withLock { $0 = held }
    unwound.withLock { $0.formIntersection(held) }
    if !result.taken.isEmpty { taking(result.taken) }
    let each = held.isEmpty ? 0 : wait / Double(held.count)
    for partition in held.sorted() {
      do {
        if unwound.withLock({ $0.contains(partition) }) {
          try queue.rewind(partition: partition)
          unwound.withLock { _ = $0.remove(partition) }
        }
        try work(partition, wait: each, into: &result)
      } catch {
        // One partition out of reach holds back no other. What it fetched
        // and did not acknowledge would wait out the queue's redelivery
        // deadline: rewound, it comes again from the first unacknowledged.
        result.failures.append("partition \(partition): \(error)")
        do { try queue.rewind(partition: partition) } catch { unwound.withLock { _ = $0.insert(partition) } }
      }
    }
    return result
  }

  private func work(_ partition: Int, wait: TimeInterval, into result: inout Pass) throws {
    // Given back since the pass began (a slow take-up): fetching would take
    // reports the new owner has rewound to, and leave them to its redelivery deadline.
    guard owner.held.contains(partition) else { return }
    let reports = try queue.fetch(partition: partition, limit: batch, wait: wait)
    // A lease run out meanwhile: another worker may own it now.
    guard !reports.isEmpty, owner.held.contains(partition) else { return }
    let (applied, failure) = apply(reports)
    let count = min(max(applied, 0), reports.count)
    result.applied += count
    if count > 0 { try queue.acknowledge(partition: partition, through: reports[count - 1].sequence) }
    // Stopped without an error: the lease ran out, and the next owner rewinds.
    if count < reports.count, let failure {
      let report = reports[count]
      result.failures.append("report \(report.sequence) of partition \(partition) (\(report.person)): \(failure)")
      try queue.rewind(partition: partition)
    }
  }
}
