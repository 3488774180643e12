#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Foundation
import Locking
import Persistence
import Synchronization

/// The `file:PATH` store, the embedded default: a directory holding an
/// append-only log of framed, checksummed batches, a snapshot, and a
/// manifest naming both with their sizes and checksums. A write returns only
/// after it is durable (fdatasync); writes that arrive together share one (group commit).
/// Opening checks the files against the manifest and refuses, saying what
/// is missing, rather than open a store that lost part of itself.
///
/// Two ways to share the directory (`FileStoreOptions.Access`): exclusive
/// holds the writer lock from open to close; shared reads without a lock and
/// takes it per write, after reading what others wrote. Files are created
/// 0600, the directory 0700. See Docs/Formats.md for the bytes.
public final class FileOperationStore: CompactingStore, NoticeKeepingStore, @unchecked Sendable {
  public let directory: String
  let options: FileStoreOptions
  let clock: any WallClock
  let newReplica: ReplicaID
  /// Held from open to close (exclusive) or during one write (shared).
  var writerLock: FileLock?
  /// Shared mode: one write of this process at a time takes the file lock.
  let writerGate = NSLock()

  /// Counts the changes to `core`'s state (`stateGeneration`): bumped
  /// with each, in the same hold of the lock, and read without it.
  let generation = Atomic(0)

  // Guarded by `condition`.
  let condition = NSCondition()
  var core: StoreCore
  var logFD: Int32 = -1
  var files: StoreFiles
  var manifestLogSize: Int
  var recoveries: [FileRecovery] = []
  var pending: [PendingBatch] = []
  var flushing = false
  /// A fold runs (`fold(from:)`); one at a time.
  var compacting = false
  /// Told, without the lock, as a fold passes each step: for tests that
  /// write at a chosen moment of it.
  var foldStep: (@Sendable (FoldStep) -> Void)?
  var closed = false
  /// Log fsyncs since open; fewer than appends when writers shared them.
  var syncs = 0

  /// A flusher thread runs (or is starting) for what is queued.
  var draining = false
  /// The flusher thread, while it runs.
  var flusher: ObjectIdentifier?
  /// Durable (or failed) batches not told yet, in order, and whether the
  /// flusher is telling them now.
  var unanswered: [(done: @Sendable ((any Error)?) -> Void, failure: (any Error)?)] = []
  var answering = false

  struct PendingBatch {
    let frame: [UInt8]
    let records: [OperationRecord]
    /// Told once the batch is durable and applied, or failed; called
    /// without the lock.
    let done: @Sendable ((any Error)?) -> Void
  }

  /// Opens the store in `directory`. Exclusive access creates it if needed
  /// and takes the writer lock (waiting up to `options.lockWait`); shared
  /// access only reads. A new store takes `newReplica` as its replica id.
  /// A torn tail is dropped by a writer and kept under `recovered/`; damage
  /// anywhere else throws `StoreError.corrupt` with the offset, and a part
  /// missing or shorter than the manifest says throws
  /// `StoreError.incomplete`, leaving every file as it was.
  public init(
    directory: String, newReplica: @autoclosure () -> ReplicaID = ReplicaID.random(),
    clock: any WallClock = SystemClock(), options: FileStoreOptions = FileStoreOptions()
  ) throws {
    self.directory = directory
    self.clock = clock
    self.options = options
    let newReplica = newReplica()
    self.newReplica = newReplica
    let files: StoreFiles
    var writerLock: FileLock?
    var logFD: Int32 = -1
    switch options.access {
    case .exclusive:
      try PosixFile.makeDirectory(directory)
      guard access(directory, R_OK | W_OK | X_OK) == 0 else {
        if errno == EACCES || errno == EROFS {
          throw StoreError.readOnly(path: directory, reason: "the directory is not writable (open it with shared access to read)")
        }
        throw PosixFile.error(directory, "open store directory")
      }
      let lock = try FileLock(path: directory + "/LOCK", wait: options.lockWait)
      do {
        files = try StoreFiles.load(directory: directory, newReplica: newReplica, mode: .writer, now: clock.now())
        // Opened now to say at once, not at the first write, that it cannot be written.
        logFD = try Self.openLog(directory + "/" + files.logName)
        if !options.keepLogOpen {
          Glibc.close(logFD)
          logFD = -1
        }
      } catch {
        lock.release()
        throw error
      }
      writerLock = lock
    case .shared:
      files = try StoreFiles.load(directory: directory, newReplica: newReplica, mode: .reader, now: clock.now())
    }
    self.writerLock = writerLock
    self.logFD = logFD
    core = StoreCore(replica: files.replica, state: files.state)
    var kept = files
    kept.state = StoreState()
    self.files = kept
    manifestLogSize = files.logSize
    if files.recovery != .none { recoveries.append(files.recovery) }
  }

  /// The log and snapshot the manifest in `directory` names (nil without one).
  public static func namedFiles(directory: String) throws -> (log: String, snapshot: String?)? {
    try StoreManifest.read(directory: directory).map { ($0.log.file, $0.snapshot?.file) }
  }

  /// Runs `body` holding the store's writer lock (waiting up to `wait`
  /// seconds for another writer), so nothing writes meanwhile: for erasing
  /// a store. A directory that does not exist needs no lock.
  public static func holdingWriterLock<Result>(directory: String, wait: TimeInterval = 2, _ body: () throws -> Result) throws -> Result {
    guard PosixFile.exists(directory) else { return try body() }
    let lock = try FileLock(path: directory + "/LOCK", wait: wait)
    defer { lock.release() }
    return try body()
  }

  /// A snapshot or log name of some generation (`log`, `log-3`, `snapshot-3`).
  public static func isStoreFile(_ name: String) -> Bool { StoreManifest.isOwnFileName(name) }

  static func openLog(_ path: String) throws -> Int32 {
    do {
      return try PosixFile.open(path, flags: O_WRONLY | O_APPEND)
    } catch {
      if [EROFS, EACCES, EPERM].contains(errno) { throw StoreError.readOnly(path: path, reason: "the log file is read-only") }
      throw error
    }
  }

  var logPath: String { directory + "/" + files.logName }

  public var replica: ReplicaID {
    condition.lock()
    defer { condition.unlock() }
    return files.replica
  }

  /// What the last open or write had to repair (the most recent first).
  public var recovery: FileRecovery {
    condition.lock()
    defer { condition.unlock() }
    return recoveries.last ?? .none
  }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    guard !operations.isEmpty else { return [] }
    return try writing {
      let records = core.stamp(operations, now: clock.now())
      try commit(records)
      return records
    }
  }

  public var appendsWithoutWaiting: Bool { options.access == .exclusive }

  /// With exclusive access the batch joins the next group commit and the
  /// caller's thread goes on; `done` is called on the store's flusher
  /// thread. Shared access writes under the file lock and answers at once.
  public func append(_ operations: [StoreOperation], then done: @escaping @Sendable (Result<[OperationRecord], any Error>) -> Void) {
    guard options.access == .exclusive, !operations.isEmpty else { return done(Result { try append(operations) }) }
    condition.lock()
    guard !closed else {
      condition.unlock()
      return done(.failure(StoreError.closed))
    }
    let records = core.stamp(operations, now: clock.now())
    enqueue(records) { failure in done(failure.map { .failure($0) } ?? .success(records)) }
    condition.unlock()
  }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] {
    try writing {
      let changed = core.newer(records)
      guard !changed.isEmpty else { return [] }
      try commit(changed)
      return changed
    }
  }

  public func state() -> StoreState {
    condition.lock()
    defer { condition.unlock() }
    return core.state
  }

  public var stateGeneration: Int? { generation.load(ordering: .acquiring) }

  /// With every change to `core`'s state, in the same hold of the lock:
  /// a reader that sees the new number then waits on the lock for the
  /// state that goes with it.
  func stateChanged() { generation.add(1, ordering: .releasing) }

  public func operations(since: HLCTimestamp?) throws -> [OperationRecord] {
    let state = state()
    return state.records(since: since)
  }

  /// Records the log's durable length in the manifest. Called with the lock held.
  func writeManifest() throws {
    try files.manifest.write(directory: directory)
    manifestLogSize = files.logSize
  }

  public func describe() -> StoreDescription {
    condition.lock()
    defer { condition.unlock() }
    let state = core.state
    var details: [(String, String)] = [
      ("replica", files.replica.rawValue),
      ("format", "version \(FileHeader.version)"),
      ("access", options.access == .exclusive ? "exclusive (holds the writer lock)" : "shared (reads without a lock, locks per write)"),
      ("generation", String(files.generation)),
      ("log", "\(files.logName), \(files.logSize) bytes, \(files.logRecords) records"),
      ("snapshot", files.snapshot.map { "\($0.file), \($0.bytes) bytes" } ?? "none"),
      ("tasks", String(state.tasks.count)),
      ("places", String(state.places.count)),
      ("lists", String(state.lists.count)),
      ("tombstones", String(state.tombstoneCount)),
      ("latest write", state.latest?.description ?? "none"),
      ("fsyncs since open", String(syncs)),
    ]
    if options.access == .shared, let holder = FileLock.holder(path: directory + "/LOCK") {
      details.append(("writer", holder > 0 ? "pid \(holder) holds the writer lock" : "another process holds the writer lock"))
    }
    if access(directory, W_OK) != 0, errno == EACCES || errno == EROFS { details.append(("writable", "no: the directory is read-only; reads work, writes are refused")) }
    return StoreDescription(kind: "file", location: directory, details: details, notices: StoreEvidence.notices(directory: directory))
  }

  public func acknowledgeNotices() throws {
    try StoreEvidence.acknowledge(directory: directory)
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
    while flushing || compacting || !pending.isEmpty { condition.wait() }
    guard !closed else {
      condition.unlock()
      return
    }
    closed = true
    // A lingering flusher ends now rather than at its timeout.
    condition.broadcast()
    if options.access == .exclusive, files.logSize != manifestLogSize { try? writeManifest() }
    if logFD >= 0 { Glibc.close(logFD) }
    logFD = -1
    condition.unlock()
    writerLock?.release()
    writerLock = nil
  }

  deinit { close() }
}
