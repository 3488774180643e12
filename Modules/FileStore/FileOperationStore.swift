#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Foundation
import Persistence

/// The `file:PATH` store, the embedded default: a directory holding an
/// append-only log of framed, checksummed batches and a snapshot replaced by
/// atomic rename. A write returns only after fsync; writes that arrive
/// together share one fsync (group commit). One process at a time: a second
/// gets `StoreError.locked` naming the holder's pid. Files are created 0600,
/// the directory 0700. See Docs/Formats.md for the bytes.
public final class FileOperationStore: CompactingStore, @unchecked Sendable {
  public let replica: ReplicaID
  public let directory: String
  public let recovery: FileRecovery
  let options: FileStoreOptions
  let clock: any WallClock
  let lock: FileLock
  let logFD: Int32

  // Guarded by `condition`.
  let condition = NSCondition()
  var core: StoreCore
  var pending: [PendingBatch] = []
  var enqueued = 0
  var flushed = 0
  var failures: [Int: any Error] = [:]
  var flushing = false
  var closed = false
  var logSize: Int
  var snapshotSize: Int
  /// Log fsyncs since open; fewer than appends when writers shared them.
  var syncs = 0

  struct PendingBatch {
    let sequence: Int
    let frame: [UInt8]
    let records: [OperationRecord]
  }

  /// Opens (creating if needed) the store in `directory`. A new store takes
  /// `newReplica` as its replica id; an existing one keeps its own. A torn
  /// tail is dropped; damage anywhere else throws `StoreError.corrupt` with
  /// the offset and leaves every file as it was.
  public init(
    directory: String, newReplica: @autoclosure () -> ReplicaID = ReplicaID.random(),
    clock: any WallClock = SystemClock(), options: FileStoreOptions = FileStoreOptions()
  ) throws {
    try PosixFile.makeDirectory(directory)
    guard access(directory, R_OK | W_OK | X_OK) == 0 else {
      throw PosixFile.error(directory, "open store directory")
    }
    let lock = try FileLock(path: directory + "/LOCK")
    do {
      let loaded = try StoreFiles.load(directory: directory, newReplica: newReplica())
      self.replica = loaded.replica
      self.core = StoreCore(replica: loaded.replica, state: loaded.state)
      self.logFD = loaded.logFD
      self.logSize = loaded.logSize
      self.snapshotSize = loaded.snapshotSize
      self.recovery = loaded.recovery
    } catch {
      lock.release()
      throw error
    }
    self.directory = directory
    self.lock = lock
    self.clock = clock
    self.options = options
  }

  var logPath: String { directory + "/log" }
  var snapshotPath: String { directory + "/snapshot" }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    guard !operations.isEmpty else { return [] }
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { throw StoreError.closed }
    let records = core.stamp(operations, now: clock.now())
    try commit(records)
    return records
  }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { throw StoreError.closed }
    let changed = core.newer(records)
    guard !changed.isEmpty else { return [] }
    try commit(changed)
    return changed
  }

  public func state() -> StoreState {
    condition.lock()
    defer { condition.unlock() }
    return core.state
  }

  public func operations(since: HLCTimestamp?) throws -> [OperationRecord] {
    let state = state()
    return state.records(since: since)
  }

  /// Enqueues a batch and returns once it is durable and applied. The first
  /// waiter with no flush running becomes the leader and writes everything
  /// queued with one fsync; the others wait for it. Called with the lock held.
  func commit(_ records: [OperationRecord]) throws {
    enqueued += 1
    let sequence = enqueued
    pending.append(PendingBatch(sequence: sequence, frame: Frame.encode(RecordCodec.encode(records)), records: records))
    while flushed < sequence {
      if flushing {
        condition.wait()
        continue
      }
      flushPending()
    }
    if let failure = failures.removeValue(forKey: sequence) { throw failure }
  }

  private func flushPending() {
    flushing = true
    let batch = pending
    pending = []
    let start = logSize
    condition.unlock()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(batch.reduce(0) { $0 + $1.frame.count })
    for item in batch { bytes.append(contentsOf: item.frame) }
    let result = Result {
      try PosixFile.writeAll(logFD, bytes, path: logPath)
      try PosixFile.sync(logFD, path: logPath)
    }
    if case .failure = result {
      // Leave no partial frame behind for the next batch to follow.
      _ = ftruncate(logFD, off_t(start))
    }
    condition.lock()
    switch result {
    case .success:
      for item in batch { core.apply(item.records) }
      logSize += bytes.count
      syncs += 1
    case .failure(let error):
      for item in batch { failures[item.sequence] = error }
    }
    flushed = batch.last?.sequence ?? flushed
    if case .success = result, logSize > options.compactAfterBytes, logSize > snapshotSize {
      // Still the leader: nobody writes to the log while it is folded away.
      try? compactHoldingLeadership()
    }
    flushing = false
    condition.broadcast()
  }

  public func describe() -> StoreDescription {
    condition.lock()
    defer { condition.unlock() }
    let state = core.state
    var details: [(String, String)] = [
      ("replica", replica.rawValue),
      ("format", "version \(FileHeader.version)"),
      ("log", "\(logSize) bytes"),
      ("snapshot", "\(snapshotSize) bytes"),
      ("tasks", String(state.tasks.count)),
      ("places", String(state.places.count)),
      ("lists", String(state.lists.count)),
      ("tombstones", String(state.tombstoneCount)),
      ("latest write", state.latest?.description ?? "none"),
      ("fsyncs since open", String(syncs)),
    ]
    if let offset = recovery.tornOffset {
      details.append(("recovered", "dropped an unfinished write of \(recovery.tornBytesDropped) bytes at offset \(offset)"))
    }
    return StoreDescription(kind: "file", location: directory, details: details)
  }

  /// Log fsyncs since this store was opened (group commit makes it smaller
  /// than the number of appends when writers arrive together).
  public var syncCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return syncs
  }

  public func close() {
    condition.lock()
    while flushing || !pending.isEmpty { condition.wait() }
    guard !closed else {
      condition.unlock()
      return
    }
    closed = true
    condition.unlock()
    Glibc.close(logFD)
    lock.release()
  }

  deinit { close() }
}
