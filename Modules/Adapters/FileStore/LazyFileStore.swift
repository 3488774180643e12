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
public final class LazyFileStore: PartialReading, CompactingStore, NoticeKeepingStore {
  private let directory: String
  private let make: @Sendable () throws -> FileOperationStore
  private struct Held {
    var store: FileOperationStore?
    var reader: FileStoreReader?
    var closed = false
  }
  private let held = Locked(Held())

  /// `make` opens the store whole (the same options a non-lazy open would use).
  public init(directory: String, make: @escaping @Sendable () throws -> FileOperationStore) {
    self.directory = directory
    self.make = make
  }

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
      // Kept while the manifest and the log's length say nobody wrote since.
      if let reader = held.reader, let manifest = reader.manifest, try StoreManifest.read(directory: directory) == manifest,
        (try? PosixFile.size(path: directory + "/" + manifest.log.file)) == reader.logSize
      {
        return reader
      }
      held.reader = try FileStoreReader.load(directory: directory)
      return held.reader
    }
  }

  public func records(of keys: Set<EntityKey>) throws -> [OperationRecord] {
    if let reader = try reader() { return try reader.records(of: keys) }
    return try opened().state().records(of: Set(keys.map(\.owner)))
  }

  public func taskKeys() throws -> Set<EntityKey> {
    if let reader = try reader() { return reader.taskKeys() }
    let state = try opened().state()
    return Set(state.versions.keys.filter { if case .task = $0 { true } else { false } }).union(state.tasks.keys.map(EntityKey.task))
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

  /// The replica file's id (what an open reads), without opening; a
  /// store without one yet is opened (which writes it).
  public var replica: ReplicaID {
    if let store = held.withLock({ $0.store }) { return store.replica }
    let text = (try? PosixFile.readAll(directory + "/replica")).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
    if let id = text.flatMap({ try? ReplicaID($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) { return id }
    return (try? opened())?.replica ?? ReplicaID.random()
  }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] { try opened().append(operations) }

  public func append(_ operations: [StoreOperation], then done: @escaping @Sendable (Result<[OperationRecord], any Error>) -> Void) {
    do { try opened().append(operations, then: done) } catch { done(.failure(error)) }
  }

  /// As the open store says; false before it is open (the CLI shares the store, and shared appends wait).
  public var appendsWithoutWaiting: Bool { held.withLock { $0.store }?.appendsWithoutWaiting ?? false }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] { try opened().merge(records) }

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

  public func close() {
    let store = held.withLock { held -> FileOperationStore? in
      held.closed = true
      held.reader = nil
      return held.store
    }
    store?.close()
  }
}
