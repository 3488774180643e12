/// An operation with the stamp that orders it against every other.
public struct OperationRecord: Hashable, Sendable {
  public let stamp: HLCTimestamp
  public let operation: StoreOperation
  /// For a put of a task, place or list: the fields this record sets (an
  /// update); the rest of its body is only context. Nil: the whole entity.
  public let fields: EntityFields?

  public init(stamp: HLCTimestamp, operation: StoreOperation, fields: EntityFields? = nil) {
    self.stamp = stamp
    self.operation = operation
    self.fields = fields
  }
}
