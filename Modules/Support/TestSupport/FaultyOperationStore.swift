import Locking
import Persistence

/// Wraps a store and refuses the appends a test chooses, as a store on a
/// network does when its server is away for a moment: what the caller
/// does when a write fails, and whether it writes again later.
public final class FaultyOperationStore: OperationStore {
  private let base: any OperationStore
  /// Appends this accepts are refused (nothing written); nil: none.
  private let refusing = Locked<(@Sendable ([StoreOperation]) -> Bool)?>(nil)
  private let refusals = Locked(0)
  /// False: closing this leaves the base open, as a server's store
  /// outlives the daemon that used it (a test restarts the daemon).
  private let closesBase: Bool

  public init(_ base: any OperationStore, closesBase: Bool = true) {
    self.base = base
    self.closesBase = closesBase
  }

  /// From now on, refuses the appends `which` accepts; nil lets every one through.
  public func refuse(_ which: (@Sendable ([StoreOperation]) -> Bool)?) { refusing.withLock { $0 = which } }

  /// How many appends were refused so far.
  public var refused: Int { refusals.withLock { $0 } }

  public struct Refused: Error, CustomStringConvertible {
    public var description: String { "the store is not reachable (refused by the test)" }
  }

  public var replica: ReplicaID { base.replica }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    if let refuse = refusing.withLock({ $0 }), refuse(operations) {
      refusals.withLock { $0 += 1 }
      throw Refused()
    }
    return try base.append(operations)
  }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] { try base.merge(records) }
  public func state() -> StoreState { base.state() }
  public func refresh() throws { try base.refresh() }
  public func operations(since: HLCTimestamp?) throws -> [OperationRecord] { try base.operations(since: since) }
  public func describe() -> StoreDescription { base.describe() }
  public func close() { if closesBase { base.close() } }
}
