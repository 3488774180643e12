/// A store with a log that can be folded into a snapshot on demand
/// (`whilehere store compact`). Compaction never changes the state.
public protocol CompactingStore: OperationStore {
  /// Writes a snapshot of the current state and empties the log; the state
  /// read afterwards is identical to the state before.
  func compact() throws
}
