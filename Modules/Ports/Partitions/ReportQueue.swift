import Foundation

/// A durable queue of phone reports split into a fixed number of
/// partitions by person (`Partitioning.partition(of:count:)`), so one
/// person's reports stay in order; whichever front received a report puts
/// it here, and the worker owning the partition takes it out. JetStream
/// (one stream, a durable consumer per partition) in a cluster, memory in
/// tests and the simulator.
///
/// One consumer per partition at a time (the lease decides which); a
/// report stays until acknowledged, and fetching does not remove it.
public protocol ReportQueue: Sendable {
  var partitions: Int { get }
  /// Stores `body` as `person`'s next report (from `device`) and returns
  /// once it is stored durably (in a cluster: on a quorum of the stream's
  /// replicas). Throws when it could not learn that it was stored; in a
  /// cluster it may still have been (the answer was lost while a node was
  /// down), so a queue that can tell sent-again from new keeps the same
  /// person, device and body published again within a short window once,
  /// answering the stored report (JetStream's duplicate window; the
  /// queues in memory, which never lose an answer, store it again).
  func publish(person: String, device: String, body: Data) throws -> QueuedReport
  /// Up to `limit` reports of `partition` in order, continuing after the
  /// last one fetched (after the last acknowledged one on the first fetch
  /// and after `rewind`), waiting up to `wait` seconds for the first when
  /// none is there; empty when none came.
  func fetch(partition: Int, limit: Int, wait: TimeInterval) throws -> [QueuedReport]
  /// The partition's reports up to and including `sequence` (one that was
  /// fetched) are done: no fetch returns them again, in this process or
  /// any other.
  func acknowledge(partition: Int, through sequence: UInt64) throws
  /// The next fetch starts again after the last acknowledged report: for
  /// a worker that just took the partition (what its previous owner
  /// fetched and did not acknowledge comes first) and after a report that
  /// could not be applied.
  func rewind(partition: Int) throws
}

extension ReportQueue {
  public func publish(person: String, body: Data) throws -> QueuedReport { try publish(person: person, device: "", body: body) }

  /// A name that cannot be written as a queued report's person or device.
  public static func unwritable(_ text: String) -> Bool { text.utf8.contains(10) || text.utf8.contains(9) }
}
