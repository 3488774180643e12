import Persistence

/// A store for tests that must not touch persistence: every call fails the
/// test loudly with the method's name.
public final class UnimplementedOperationStore: OperationStore {
  public let replica = Fixtures.replica("unimplemented")
  public init() {}

  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    throw ConformanceViolation(check: "UnimplementedOperationStore.append", detail: "called with \(operations.count) operations")
  }
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] {
    throw ConformanceViolation(check: "UnimplementedOperationStore.merge", detail: "called")
  }
  public func state() -> StoreState { fatalError("UnimplementedOperationStore.state() called") }
  public func operations(since: HLCTimestamp?) throws -> [OperationRecord] {
    throw ConformanceViolation(check: "UnimplementedOperationStore.operations(since:)", detail: "called")
  }
  public func describe() -> StoreDescription { fatalError("UnimplementedOperationStore.describe() called") }
  public func close() {}
}
