#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Foundation
import Locking
import Persistence

/// A `file:` store opened lazily (the CLI): a command that names a few
/// entities reads them through `FileStoreReader` (the snapshot's sidecar
/// and the log after it), and the store is opened whole, as
/// `FileOperationStore` opens it, only when something needs all of it:
/// `state()`, a write, `refresh()`, `describe()`. Part reads go to the
/// files even then (what this process wrote is in the log they read), so
/// a write command's lookups stay as quick. A store with no usable sidecar
/// (compacted before sidecars, by an older build) is opened whole for
/// part reads too.
///
/// A shared writer given a clock also appends without opening the store
/// whole (`appendInPlace`): under the writer lock it reads the records of
/// the keys it writes, stamps after the newest stamp in the store (the
/// manifest's for the snapshot, the log's own), and appends one frame
/// with fdatasync, as a whole writer's batch would. Damage in records a
/// write does not touch is then found by what reads everything
/// (`doctor`, a compaction), not by every write.
public final class LazyFileStore: PartialReading, CompactingStore, NoticeKeepingStore {
  private let directory: String
  private let make: @Sendable () throws -> FileOperationStore
  private struct Held {
    var store: FileOperationStore?
    var reader: FileStoreReader?
    var closed = false
    /// Whether this process wrote: only then may closing fold the log.
    var wrote = false
  }
  private let held = Locked(Held())
  private let options: FileStoreOptions
  /// Stamps in-place appends; nil: every write opens the store whole.
  private let clock: (any WallClock)?

  /// `make` opens the store whole (the same options a non-lazy open would
  /// use). Writes append in place when `options.access` is shared and a
  /// `clock` is given.
  public init(
    directory: String, options: FileStoreOptions = FileStoreOptions(), clock: (any WallClock)? = nil,
    make: @escaping @Sendable () throws -> FileOperationStore
  ) {
    self.directory = directory
    self.options = options
    self.clock = clock
    self.make = make
  }

  /// Whether the store has been read whole in this process.
  public var isOpenWhole: Bool { held.withLock { $0.store != nil } }

  /// The whole store, opened now if it was not.
  func opened() throws -> FileOperationStore {
    try held.withLock { held in
      guard !held.closed else { throw StoreError.closed }
      if let store = held.store { return store }
      let store = try make()
      held.store = store
      return store
    }
  }

  /// A reader of what is on disk now, or nil when the store must be read
  /// whole (no sidecar to read by).
  private func reader() throws -> FileStoreReader? {
    try held.withLock { held in
      guard !held.closed else { throw StoreError.closed }
      return try reader(&held)
    }
  }

  /// The reader `held` keeps while the manifest and the log's length say
  /// nobody wrote since, or a new one.
  private func reader(_ held: inout Held) throws -> FileStoreReader? {
    if let reader = held.reader, let manifest = reader.manifest, try StoreManifest.read(directory: directory) == manifest,
      (try? PosixFile.size(path: directory + "/" + manifest.log.file)) == reader.logSize
    {
      return reader
    }
    held.reader = try FileStoreReader.load(directory: directory)
    return held.reader
  }

  public func records(of keys: Set<EntityKey>) throws -> [OperationRecord] {
    if let reader = try reader() { return try reader.records(of: keys) }
    return try opened().state().records(of: Set(keys.map(\.owner)))
  }

  public func taskKeys() throws -> Set<EntityKey> {
    if let reader = try reader() { return reader.taskKeys() }
    return try opened().state().taskKeys
  }

  public func listKeys() throws -> Set<EntityKey> {
    if let reader = try reader() { return reader.listKeys() }
    return try opened().state().listKeys
  }

  public func settingKeys(startingWith prefix: String) throws -> Set<EntityKey> {
    if let reader = try reader() { return reader.settingKeys(startingWith: prefix) }
    return try opened().state().settingKeys(startingWith: prefix)
  }

  public func tasks(near point: Coordinate) throws -> Set<TaskID> {
    if let reader = try reader() { return reader.tasks(near: point) }
    let state = try opened().state()
    return Set(state.tasks.keys.filter { id in state.spots(of: id).contains { $0.box?.contains(point) == true } })
  }

  public func placeNames() throws -> [(id: PlaceID, name: String)] {
    if let reader = try reader(), let names = try reader.placeNames() { return names }
    return try opened().state().placeNames
  }

  public func placeNames(startingWith folded: String, idPrefix: String?) throws -> [(id: PlaceID, name: String)]? {
    try reader()?.placeNames(startingWith: folded, idPrefix: idPrefix)
  }

  public func taskTitles() throws -> [TaskTitle] {
    if let reader = try reader(), let titles = try reader.taskTitles() { return titles }
    return try opened().state().taskTitles
  }

  public func taskListings() throws -> TaskListingTable {
    if let reader = try reader(), let listings = try reader.taskListings() { return listings }
    return TaskListingTable(try opened().state().taskListings)
  }

  public func places(inList list: ListID) throws -> Set<PlaceID> {
    if let reader = try reader(), let places = reader.places(inList: list) { return places }
    return try opened().state().places(inList: list)
  }

  public func listCounts() throws -> [ListID: Int] {
    if let reader = try reader(), let counts = try reader.listCounts() { return counts }
    return try opened().state().listCounts
  }

  /// The replica file's id (what an open reads), without opening; a
  /// store without one yet is opened (which writes it).
  public var replica: ReplicaID {
    if let store = held.withLock({ $0.store }) { return store.replica }
    if let id = Self.replica(in: directory) { return id }
    return (try? opened())?.replica ?? ReplicaID.random()
  }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    held.withLock { $0.wrote = true }
    if let written = try appendInPlace(operations) { return written }
    return try opened().append(operations)
  }

  public func append(_ operations: [StoreOperation], then done: @escaping @Sendable (Result<[OperationRecord], any Error>) -> Void) {
    held.withLock { $0.wrote = true }
    do {
      if let written = try appendInPlace(operations) { return done(.success(written)) }
      try opened().append(operations, then: done)
    } catch { done(.failure(error)) }
  }

  /// Writes `operations` as a shared writer does, without reading the
  /// store whole; nil, having written nothing, when that cannot be done
  /// here and the whole store must write them instead: no clock or
  /// exclusive access, the store already open whole (its state must see
  /// the write), no store yet, no sidecar or no newest stamp in the
  /// manifest (written by an older build), an unfinished write at the
  /// log's end (the whole open sets it aside), or a log due for compaction.
  private func appendInPlace(_ operations: [StoreOperation]) throws -> [OperationRecord]? {
    guard let clock, options.access == .shared, !operations.isEmpty else { return nil }
    return try held.withLock { held -> [OperationRecord]? in
      guard !held.closed else { throw StoreError.closed }
      guard held.store == nil, try StoreManifest.read(directory: directory) != nil else { return nil }
      let lock = try FileLock(path: directory + "/LOCK", wait: options.lockWait)
      defer { lock.release() }
      // Looked at again under the lock: another writer may have written or compacted since.
      guard var reader = try reader(&held), let manifest = reader.manifest, case .some(let latest) = reader.latest,
        let replica = Self.replica(in: directory)
      else { return nil }
      let logPath = directory + "/" + manifest.log.file
      // A log the whole store would compact at this write is written by it (`flushPending`).
      let dueForCompaction = options.isDueForCompaction(logSize: reader.logSize, snapshotSize: manifest.snapshot?.bytes ?? 0)
      guard try PosixFile.size(path: logPath) == reader.logSize, !dueForCompaction else { return nil }
      var core = StoreCore(replica: replica, state: try reader.state(of: Set(operations.map(\.key))))
      if let latest { core.observe(latest) }
      let records = core.stamp(operations, now: clock.now())
      guard !records.isEmpty else { return [] }
      let frame = Frame.encode(RecordCodec.encode(records))
      let fd = try FileOperationStore.openLog(logPath)
      defer { Glibc.close(fd) }
      do {
        try PosixFile.writeAll(fd, frame, path: logPath)
        try PosixFile.syncData(fd, path: logPath)
      } catch {
        // Leave no partial frame for the next writer to set aside.
        _ = ftruncate(fd, off_t(reader.logSize))
        throw error
      }
      // Kept for the next read (the command shows what it wrote), as the manifest now says.
      reader.append(records, frame: frame)
      held.reader = reader
      // The write is durable already; a manifest that lags only means the next writer records the length (and this reader is read again).
      try? reader.manifest?.write(directory: directory)
      return records
    }
  }

  /// The id in the store's `replica` file; nil when it is missing or not an id.
  static func replica(in directory: String) -> ReplicaID? {
    let text = (try? PosixFile.readAll(directory + "/replica")).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    return text.flatMap { try? ReplicaID($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  /// As the open store says; false before it is open (the CLI shares the store, and shared appends wait).
  public var appendsWithoutWaiting: Bool { held.withLock { $0.store }?.appendsWithoutWaiting ?? false }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] {
    held.withLock { $0.wrote = true }
    return try opened().merge(records)
  }

  /// The whole state; a store that cannot be opened shows none (`refresh`
  /// throws why, and the CLI calls it first for every command that needs this).
  public func state() -> StoreState { (try? opened())?.state() ?? StoreState() }

  public func refresh() throws { try opened().refresh() }

  public func operations(since: HLCTimestamp?) throws -> [OperationRecord] { try opened().operations(since: since) }

  public func describe() -> StoreDescription {
    do { return try opened().describe() } catch {
      return StoreDescription(kind: "file", location: directory, details: [("problem", "\(error)")])
    }
  }

  public func compact() throws { try opened().compact() }

  public func acknowledgeNotices() throws { try opened().acknowledgeNotices() }

  /// Folds the log into a snapshot, when this process wrote and left it
  /// longer than `options.compactLogPastBytes`, then closes. At the end of
  /// a command rather than at each write: an import writes in chunks, and
  /// folding at each one rewrote the whole store every chunk (5,000 rows
  /// into 100,000 places 6.5 → 16.8 s). The write is durable already; a
  /// fold that fails is left for the next command.
  public func close() {
    if let limit = options.compactLogPastBytes, held.withLock({ $0.wrote && !$0.closed }),
      let manifest = try? StoreManifest.read(directory: directory),
      let size = try? PosixFile.size(path: directory + "/" + manifest.log.file), size > limit
    {
      try? opened().compact()
    }
    let store = held.withLock { held -> FileOperationStore? in
      held.closed = true
      held.reader = nil
      return held.store
    }
    store?.close()
  }
}
