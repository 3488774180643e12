import Domain
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
  /// anything this core has applied or observed. A put of a task, place or
  /// list already held becomes an update of the fields that changed, plus
  /// tag adds and removals; a put that changes nothing writes nothing.
  public mutating func stamp(_ operations: [StoreOperation], now: Date) -> [OperationRecord] {
    // What earlier operations of this batch wrote (nil: deleted), since the
    // state sees the batch only once it is durable.
    var written: [EntityKey: Entity?] = [:]
    var records: [OperationRecord] = []
    records.reserveCapacity(operations.count)
    for operation in operations {
      let key = operation.key
      guard EntityFields.hasFields(key) else {
        // Written whole, whatever is held: no need to look.
        records.append(OperationRecord(stamp: clock.tick(now: now), operation: operation))
        continue
      }
      let held = written.isEmpty ? state.entity(for: key) : (written[key] ?? state.entity(for: key))
      if let held {
        for (step, fields) in Self.changes(operation, held: held, spellings: state.tagSpellings) {
          records.append(OperationRecord(stamp: clock.tick(now: now), operation: step, fields: fields))
        }
      } else {
        records.append(OperationRecord(stamp: clock.tick(now: now), operation: operation))
      }
      // Only what was held needs remembering: a later put of a key this
      // batch created is whole anyway, and is right whole.
      guard operations.count > 1, held != nil || operation.isDelete else { continue }
      if case .put(let entity) = operation { written[key] = .some(entity) } else { written[key] = .some(nil) }
    }
    return records
  }

  /// The records to write for `operation` over what is held. `spellings`
  /// gives every spelling a place's tag is held under (concurrent adds of
  /// "Cafe" and "café" show as one tag), so a removal removes them all.
  static func changes(
    _ operation: StoreOperation, held: Entity, spellings: (PlaceID, String) -> [String] = { [$1] }
  ) -> [(StoreOperation, EntityFields?)] {
    guard case .put(let entity) = operation, EntityFields.hasFields(entity.key),
      let fields = entity.changedFields(from: held)
    else { return [(operation, nil)] }
    var result: [(StoreOperation, EntityFields?)] = fields.isEmpty ? [] : [(operation, fields)]
    if case .place(let old) = held, case .place(let new) = entity {
      let before = Set(old.personal.tags), after = Set(new.personal.tags)
      for name in new.personal.tags where !before.contains(name) {
        result.append((.put(.tag(PlaceTag(place: new.id, name: name))), nil))
      }
      for name in old.personal.tags where !after.contains(name) {
        for spelling in spellings(new.id, name) where !after.contains(spelling) {
          result.append((.delete(.tag(PlaceTag(place: new.id, name: spelling))), nil))
        }
      }
    }
    return result
  }

  /// The records of `incoming` that would change the state now, with the
  /// clock moved past all of them.
  public mutating func newer(_ incoming: [OperationRecord]) -> [OperationRecord] {
    // Records this batch already took; the store's state is only read
    // (copying it for every batch made merging quadratic). A later record of
    // the batch is newer than an earlier one, so the state decides the rest.
    var taken: Set<HLCTimestamp> = []
    var result: [OperationRecord] = []
    for record in incoming.sorted(by: { $0.stamp < $1.stamp }) {
      clock.observe(record.stamp)
      guard !taken.contains(record.stamp), state.wouldChange(record) else { continue }
      taken.insert(record.stamp)
      result.append(record)
    }
    return result
  }

  /// Moves the clock past `stamp`, so what this core stamps next is newer
  /// (a writer that holds part of the state learns the store's newest stamp so).
  public mutating func observe(_ stamp: HLCTimestamp) { clock.observe(stamp) }

  /// Makes room for about `count` more keys (`StoreState.reserveCapacity`).
  public mutating func reserveCapacity(_ count: Int) { state.reserveCapacity(count) }

  public mutating func apply(_ records: [OperationRecord]) {
    for record in records { clock.observe(record.stamp) }
    state.apply(contentsOf: records)
  }
}
