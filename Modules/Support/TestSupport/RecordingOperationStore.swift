import Locking
import Persistence

/// Wraps a store and records every batch appended, so a test can assert
/// exactly what a use case wrote (and that a refused command wrote nothing).
public final class RecordingOperationStore: OperationStore {
  private let base: any OperationStore
  private let recorded = Locked<[[StoreOperation]]>([])

  public init(_ base: any OperationStore) { self.base = base }

  /// Batches appended so far, oldest first.
  public var batches: [[StoreOperation]] { recorded.withLock { $0 } }

  public var replica: ReplicaID { base.replica }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    let records = try base.append(operations)
    if !operations.isEmpty { recorded.withLock { $0.append(operations) } }
    return records
  }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] { try base.merge(records) }
  public func state() -> StoreState { base.state() }
  public func operations(since: HLCTimestamp?) throws -> [OperationRecord] { try base.operations(since: since) }
  public func describe() -> StoreDescription { base.describe() }
  public func close() { base.close() }
}
