/// The persistence port: an operation log with its materialised state.
///
/// Contract (checked by `StoreConformance` in TestSupport):
/// - `append` turns each operation into records (`StoreCore.stamp`: a put of
///   a task, place or list already held becomes an update of the fields that
///   changed plus tag adds and removals; one that changes nothing, none),
///   stamps them with fresh, strictly increasing HLC stamps of this store's
///   replica, makes the whole batch durable as one unit and only then
///   applies it and returns the records; a batch is never partly visible,
///   before or after a crash. An empty batch returns `[]` and writes nothing.
/// - `merge` applies records from other replicas by last-writer-wins per key,
///   per field and per tag (`StoreState`); records not newer than what is
///   held change nothing (merging is idempotent, commutative and
///   associative) and the clock moves past them.
/// - `state()` reflects every acknowledged append and merge, nothing else.
/// - `operations(since:)` returns, in stamp order, the records that rebuild
///   every stamp written after the given stamp (all when nil): per key its
///   latest whole put or tombstone, newer field updates, tag records.
/// - `append(_:then:)` does what `append` does and hands its result to
///   `done` exactly once, from any thread, once durable and applied;
///   batches are made durable in the order they were handed in. A store
///   that can make a caller's batch durable without holding its thread
///   (the FileStore's group commit) does so; the default calls `append`.
/// - `append(_:unless:then:)` writes nothing and answers nil when its
///   condition holds for the state the batch would be written on (for a
///   log several processes write: every write stored before it included).
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

  /// `append`, answered through `done` (from any thread) instead of waiting.
  func append(_ operations: [StoreOperation], then done: @escaping @Sendable (Result<[OperationRecord], any Error>) -> Void)

  /// `append(_:then:)` unless `superseded` holds for the state the batch
  /// would be written on; then nothing is written and `done` gets nil.
  /// A log several processes write (a cluster's journal) asks it of the
  /// state with every write stored before this one, others' included, so
  /// a writer that lost a race to a newer value never puts an older one
  /// back; a store one process writes asks it of `state()` when called.
  func append(
    _ operations: [StoreOperation], unless superseded: @escaping @Sendable (StoreState) -> Bool,
    then done: @escaping @Sendable (Result<[OperationRecord]?, any Error>) -> Void)

  /// Whether `append(_:then:)` returns before the batch is durable (false:
  /// it waits on the caller's thread, as `append` does).
  var appendsWithoutWaiting: Bool { get }

  /// Applies records from another replica; returns those that changed state.
  @discardableResult
  func merge(_ records: [OperationRecord]) throws -> [OperationRecord]

  /// The state after every acknowledged write.
  func state() -> StoreState

  /// A number that changes whenever `state()` may answer differently,
  /// read without waiting on the store's writes: a reader that read it,
  /// then the state, may keep that state for as long as the number stays
  /// the same (the arrival engine does, at every fix). nil when the store
  /// does not say: read `state()` each time.
  var stateGeneration: Int? { get }

  /// Reads what other processes wrote since this one last did, so
  /// `state()` shows it: for a worker that takes over a person another
  /// worker served. A store that reads others' writes as they come, or
  /// that only one process writes, has nothing to do.
  func refresh() throws

  /// The records that rebuild every stamp after `since`, in stamp order.
  func operations(since: HLCTimestamp?) throws -> [OperationRecord]

  /// What the store is and how it is doing, for `whilehere doctor`.
  func describe() -> StoreDescription

  /// Flushes and releases files and locks.
  func close()
}

extension OperationStore {
  public var appendsWithoutWaiting: Bool { false }

  public var stateGeneration: Int? { nil }

  public func refresh() throws {}

  public func append(_ operations: [StoreOperation], then done: @escaping @Sendable (Result<[OperationRecord], any Error>) -> Void) {
    done(Result { try append(operations) })
  }

  public func append(
    _ operations: [StoreOperation], unless superseded: @escaping @Sendable (StoreState) -> Bool,
    then done: @escaping @Sendable (Result<[OperationRecord]?, any Error>) -> Void
  ) {
    guard !superseded(state()) else { return done(.success(nil)) }
    append(operations) { done($0.map { $0 }) }
  }
}
