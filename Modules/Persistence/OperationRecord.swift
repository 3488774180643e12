/// An operation with the stamp that orders it against every other.
public struct OperationRecord: Hashable, Sendable {
  public let stamp: HLCTimestamp
  public let operation: StoreOperation

  public init(stamp: HLCTimestamp, operation: StoreOperation) {
    self.stamp = stamp
    self.operation = operation
  }
}
