import Foundation

/// The part every store shares: stamping with the replica's clock and
/// applying records to the materialised state. Stores wrap it in their own
/// locking and durability.
public struct StoreCore: Sendable {
  public private(set) var state: StoreState
  public private(set) var clock: HybridLogicalClock

  public init(replica: ReplicaID, state: StoreState = StoreState()) {
    self.state = state
    self.clock = HybridLogicalClock(replica: replica, last: nil)
    if let latest = state.latest { clock.observe(latest) }
  }

  /// Stamps a batch; the stamps are strictly increasing and newer than
  /// anything this core has applied or observed.
  public mutating func stamp(_ operations: [StoreOperation], now: Date) -> [OperationRecord] {
    operations.map { OperationRecord(stamp: clock.tick(now: now), operation: $0) }
  }

  /// The records of `incoming` that would change the state now, with the
  /// clock moved past all of them.
  public mutating func newer(_ incoming: [OperationRecord]) -> [OperationRecord] {
    // Keys this batch already settled; the store's own versions are only
    // read (copying them for every batch made merging quadratic).
    var settled: [EntityKey: HLCTimestamp] = [:]
    var result: [OperationRecord] = []
    for record in incoming.sorted(by: { $0.stamp < $1.stamp }) {
      clock.observe(record.stamp)
      let key = record.operation.key
      if let held = settled[key] ?? state.versions[key], held >= record.stamp { continue }
      settled[key] = record.stamp
      result.append(record)
    }
    return result
  }

  public mutating func apply(_ records: [OperationRecord]) {
    for record in records {
      clock.observe(record.stamp)
      state.apply(record)
    }
  }
}
