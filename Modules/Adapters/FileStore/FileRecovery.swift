/// What opening a file store had to repair, shown by `whilehere doctor`.
public struct FileRecovery: Sendable, Equatable {
  /// Bytes of an unacknowledged write cut short by a crash, dropped from the log's end.
  public var tornBytesDropped: Int
  /// Where they started.
  public var tornOffset: Int?
  /// Where the dropped bytes were kept (`recovered/…`), so nothing is destroyed.
  public var evidence: String?

  public static let none = FileRecovery(tornBytesDropped: 0, tornOffset: nil, evidence: nil)
}
