import Foundation

/// Who holds which partition now, read from the leases: what `/health`
/// and `whilehere doctor` show of a cluster.
public struct PartitionTable: Codable, Equatable, Sendable {
  public let partitions: Int
  /// Each worker present (its presence lease running), with the partitions it holds.
  public let workers: [String: [Int]]
  /// Partitions no running lease holds (waiting for a worker's next round).
  public let free: [Int]

  public init(partitions: Int, workers: [String: [Int]], free: [Int]) {
    self.partitions = partitions
    self.workers = workers
    self.free = free
  }

  public static func read(_ leases: any LeaseStore, partitions: Int, now: Date) throws -> PartitionTable {
    let table = try leases.all()
    var workers: [String: [Int]] = [:]
    for (key, entry) in table where key.hasPrefix("worker.") && entry.lease.isHeld(at: now) { workers[entry.lease.owner] = [] }
    var free: [Int] = []
    for partition in 0..<partitions {
      if let entry = table[Partitioning.partitionKey(partition)], entry.lease.isHeld(at: now) {
        workers[entry.lease.owner, default: []].append(partition)
      } else {
        free.append(partition)
      }
    }
    return PartitionTable(partitions: partitions, workers: workers, free: free)
  }

  /// "a holds 4, b holds 4; 0 of 8 free".
  public var summary: String {
    let held = workers.keys.sorted().map { "\($0) holds \(workers[$0]!.count)" }
    return (held.isEmpty ? "no worker present" : held.joined(separator: ", ")) + "; \(free.count) of \(partitions) free"
  }
}
