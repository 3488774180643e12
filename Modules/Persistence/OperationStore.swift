/// The persistence port: an operation log with its materialised state.
///
/// Contract (checked by `StoreConformance` in TestSupport):
/// - `append` stamps each operation with a fresh, strictly increasing HLC
///   stamp of this store's replica, makes the whole batch durable as one unit
///   and only then applies it and returns; a batch is never partly visible,
///   before or after a crash. An empty batch returns `[]` and writes nothing.
/// - `merge` applies records from other replicas by last-writer-wins per key;
///   records not newer than what is held change nothing (merging is
///   idempotent, commutative and associative) and the clock moves past them.
/// - `state()` reflects every acknowledged append and merge, nothing else.
/// - `operations(since:)` returns, in stamp order, one record per key written
///   after the given stamp (every key when nil), tombstones included.
/// - after `close()`, every call but `close()` throws `StoreError.closed`
///   (or returns the last state for `state()`); closing twice is harmless.
///
/// ```swift
/// let records = try store.append([.put(.task(task))])
/// let task = store.state().tasks[task.id]
/// ```
public protocol OperationStore: AnyObject, Sendable {
  /// The replica that stamps this store's own writes.
  var replica: ReplicaID { get }

  /// Makes `operations` durable as one unit, then applies them.
  @discardableResult
  func append(_ operations: [StoreOperation]) throws -> [OperationRecord]

  /// Applies records from another replica; returns those that changed state.
  @discardableResult
  func merge(_ records: [OperationRecord]) throws -> [OperationRecord]

  /// The state after every acknowledged write.
  func state() -> StoreState

  /// One record per key written after `since`, in stamp order.
  func operations(since: HLCTimestamp?) throws -> [OperationRecord]

  /// What the store is and how it is doing, for `whilehere doctor`.
  func describe() -> StoreDescription

  /// Flushes and releases files and locks.
  func close()
}
