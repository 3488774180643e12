import Domain
import Foundation
import Locking

/// The `memory` store: the full contract, no durability. Used by tests and
/// the testing profile.
public final class InMemoryOperationStore: OperationStore {
  public let replica: ReplicaID
  private let clock: any WallClock
  private let core: Locked<(StoreCore, closed: Bool)>

  public init(replica: ReplicaID, clock: any WallClock = SystemClock()) {
    self.replica = replica
    self.clock = clock
    self.core = Locked((StoreCore(replica: replica), false))
  }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    try core.withLock { guarded in
      guard !guarded.closed else { throw StoreError.closed }
      let records = guarded.0.stamp(operations, now: clock.now())
      guarded.0.apply(records)
      return records
    }
  }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] {
    try core.withLock { guarded in
      guard !guarded.closed else { throw StoreError.closed }
      let changed = guarded.0.newer(records)
      guarded.0.apply(changed)
      return changed
    }
  }

  public func state() -> StoreState { core.withLock { $0.0.state } }

  public func operations(since: HLCTimestamp?) throws -> [OperationRecord] {
    try core.withLock { guarded in
      guard !guarded.closed else { throw StoreError.closed }
      return guarded.0.state.records(since: since)
    }
  }

  public func describe() -> StoreDescription {
    let state = state()
    return StoreDescription(
      kind: "memory", location: "(in memory, lost on exit)",
      details: [
        ("replica", replica.rawValue), ("tasks", String(state.tasks.count)),
        ("places", String(state.places.count)),
      ])
  }

  public func close() { core.withLock { $0.closed = true } }
}
