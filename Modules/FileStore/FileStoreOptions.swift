/// Tuning for a file store; defaults suit a person's collection.
public struct FileStoreOptions: Sendable {
  /// Fold the log into a snapshot once it grows past this many bytes (and
  /// past the snapshot's own size, so large stores do not rewrite constantly).
  public var compactAfterBytes: Int
  /// Records per snapshot frame; bounds the memory one frame needs.
  public var snapshotFrameRecords: Int

  public init(compactAfterBytes: Int = 16 << 20, snapshotFrameRecords: Int = 8192) {
    self.compactAfterBytes = compactAfterBytes
    self.snapshotFrameRecords = snapshotFrameRecords
  }
}
