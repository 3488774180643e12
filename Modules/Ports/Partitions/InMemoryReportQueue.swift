import Foundation
import Locking

/// Reports in memory, shared by the fronts and workers of one process
/// (tests, the simulator).
public final class InMemoryReportQueue: ReportQueue {
  public let partitions: Int
  private struct Partition {
    var reports: [QueuedReport] = []
    /// Reports before these indices are acknowledged, and fetched.
    var acknowledged = 0
    var fetched = 0
  }
  private let state: Locked<(next: UInt64, partitions: [Partition])>

  public init(partitions: Int) {
    precondition(partitions > 0, "at least one partition")
    self.partitions = partitions
    state = Locked((1, Array(repeating: Partition(), count: partitions)))
  }

  public func publish(person: String, device: String, body: Data) throws -> QueuedReport {
    guard !person.isEmpty, !Self.unwritable(person), !Self.unwritable(device) else {
      throw QueueRefusal(description: "a person's and a device's names must be one line without tabs, not '\(person)' '\(device)'")
    }
    let partition = Partitioning.partition(of: person, count: partitions)
    return state.withLock { state in
      let report = QueuedReport(partition: partition, sequence: state.next, person: person, device: device, body: body)
      state.next += 1
      state.partitions[partition].reports.append(report)
      return report
    }
  }

  public func fetch(partition: Int, limit: Int, wait: TimeInterval) throws -> [QueuedReport] {
    try check(partition)
    return state.withLock { state in
      let p = state.partitions[partition]
      let end = min(p.reports.count, p.fetched + max(0, limit))
      state.partitions[partition].fetched = end
      return Array(p.reports[p.fetched..<end])
    }
  }

  public func acknowledge(partition: Int, through sequence: UInt64) throws {
    try check(partition)
    try state.withLock { state in
      let p = state.partitions[partition]
      guard let index = p.reports[..<p.fetched].firstIndex(where: { $0.sequence == sequence }) else {
        throw QueueRefusal(description: "report \(sequence) of partition \(partition) was not fetched")
      }
      state.partitions[partition].acknowledged = max(p.acknowledged, index + 1)
    }
  }

  public func rewind(partition: Int) throws {
    try check(partition)
    state.withLock { $0.partitions[partition].fetched = $0.partitions[partition].acknowledged }
  }

  /// Reports of every partition not yet acknowledged.
  public var unacknowledged: Int {
    state.withLock { $0.partitions.reduce(0) { $0 + $1.reports.count - $1.acknowledged } }
  }

  private func check(_ partition: Int) throws {
    guard (0..<partitions).contains(partition) else {
      throw QueueRefusal(description: "partition \(partition) is not one of 0..<\(partitions)")
    }
  }
}

/// A queue call refused for what was asked (not for the queue being out of reach).
public struct QueueRefusal: Error, CustomStringConvertible {
  public let description: String
  public init(description: String) { self.description = description }
}
