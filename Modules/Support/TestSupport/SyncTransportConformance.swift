import Domain
import Foundation
import Locking
import Persistence
import Sync

/// The shared suite every `SyncTransport` passes: what one replica pushes,
/// another pulls once (the cursor moves on), its own records are harmless,
/// and pushing twice is harmless.
public enum SyncTransportConformance {
  public static func verify(make: () throws -> any SyncTransport) throws {
    let transport = try make()
    let a = try ReplicaID("replica-a")
    let b = try ReplicaID("replica-b")
    let first = [
      OperationRecord(stamp: HLCTimestamp(wallMillis: 1_000, counter: 0, replica: a), operation: .put(.task(Fixtures.task("t1")))),
      OperationRecord(stamp: HLCTimestamp(wallMillis: 1_001, counter: 0, replica: a), operation: .delete(.list(ListID("g1")))),
    ]
    try transport.push(first, from: a)
    let pulled = try transport.pull(after: nil, replica: b)
    try expect(Set(pulled.records.map(\.stamp)).isSuperset(of: first.map(\.stamp)), "pull", "b did not get a's records: \(pulled.records.map(\.stamp))")
    try expect(pulled.records.first { $0.stamp == first[1].stamp }?.operation == .delete(.list(ListID("g1"))), "tombstone", "the delete did not travel as a delete")
    let again = try transport.pull(after: pulled.cursor, replica: b)
    try expect(again.records.filter { $0.stamp.replica == a }.isEmpty, "cursor", "records came twice: \(again.records.map(\.stamp))")
    let second = [OperationRecord(stamp: HLCTimestamp(wallMillis: 2_000, counter: 0, replica: a), operation: .put(.setting(key: "k", value: "v")))]
    try transport.push(second, from: a)
    try transport.push(second, from: a)
    let later = try transport.pull(after: again.cursor, replica: b)
    try expect(later.records.contains { $0.stamp == second[0].stamp }, "pull after cursor", "the second push did not arrive")
    try expect(later.records.allSatisfy { $0.stamp.replica != a || $0.stamp > first[1].stamp }, "cursor", "old records came again")
  }
}

/// A sync hub in memory, for tests of the sync service.
public final class InMemorySyncHub: SyncTransport, Sendable {
  public let name = "memory"
  private let log = Locked<[OperationRecord]>([])

  public init() {}

  public func push(_ records: [OperationRecord], from replica: ReplicaID) throws {
    log.withLock { $0.append(contentsOf: records) }
  }

  public func pull(after cursor: String?, replica: ReplicaID) throws -> SyncPull {
    log.withLock { log in
      let start = cursor.flatMap(Int.init) ?? 0
      guard start <= log.count else { return SyncPull(records: [], cursor: String(log.count)) }
      return SyncPull(records: Array(log[start...]), cursor: String(log.count))
    }
  }
}
