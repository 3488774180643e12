import Foundation

/// Tuning for a file store; defaults suit a person's collection.
public struct FileStoreOptions: Sendable {
  /// How a store shares its directory with other processes.
  public enum Access: Sendable {
    /// Takes the writer lock at open and holds it until close (whilehered:
    /// it keeps state in memory and writes all the time).
    case exclusive
    /// Reads without any lock, so reads are never refused; each write takes
    /// the writer lock (waiting up to `lockWait`), first reads what other
    /// writers added, then writes and lets go (the CLI).
    case shared
  }

  /// Fold the log into a snapshot once it grows past this many bytes (and
  /// past the snapshot's own size, so large stores do not rewrite constantly).
  public var compactAfterBytes: Int
  /// A store read in parts (the CLI's `LazyFileStore`) that wrote folds
  /// its log into a snapshot as it closes, when the log is past this many
  /// bytes, whatever the snapshot's size; nil: not for this reason. It
  /// reads its whole log at every command, so its commands stay quick only
  /// while the log is short: a store filled by `sync` or a restore (a 10
  /// MB log and no snapshot) made every command take 0.2 s until a compaction.
  public var compactLogPastBytes: Int?
  /// Records per snapshot frame; bounds the memory one frame needs.
  public var snapshotFrameRecords: Int
  public var access: Access
  /// Seconds a writer waits for another writer to let go.
  public var lockWait: TimeInterval
  /// An exclusive store rewrites its manifest after this much log growth
  /// (and at close and compaction), bounding what a vanished log can hide.
  public var manifestEveryBytes: Int
  /// An exclusive store keeps its log open between writes (true), or
  /// opens it for each batch and holds only its writer lock (false: a
  /// daemon with ten thousand people's stores open; an open costs a tenth
  /// of an fsync or more: single durable writes fell by up to a fifth).
  public var keepLogOpen: Bool

  public init(
    compactAfterBytes: Int = 16 << 20, snapshotFrameRecords: Int = 8192, access: Access = .exclusive,
    lockWait: TimeInterval = 10, manifestEveryBytes: Int = 1 << 20, keepLogOpen: Bool = true, compactLogPastBytes: Int? = nil
  ) {
    self.compactLogPastBytes = compactLogPastBytes
    self.keepLogOpen = keepLogOpen
    self.compactAfterBytes = compactAfterBytes
    self.snapshotFrameRecords = snapshotFrameRecords
    self.access = access
    self.lockWait = lockWait
    self.manifestEveryBytes = manifestEveryBytes
  }

  /// Whether a log of `logSize` bytes after a snapshot of `snapshotSize`
  /// (0: none) is due to be folded into the next snapshot.
  func isDueForCompaction(logSize: Int, snapshotSize: Int) -> Bool {
    logSize > compactAfterBytes && logSize > snapshotSize
  }
}
