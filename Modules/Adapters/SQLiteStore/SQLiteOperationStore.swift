import Domain
import Foundation
import Locking
import Persistence

/// The `sqlite:PATH` store: the operation log as rows of one SQLite table
/// (each record's JSON form, in the order written), with the replica's
/// id beside it. WAL with `synchronous=FULL`, so a batch is acknowledged
/// only once its commit is on disk and a batch is never partly there.
/// Several processes may open the same file: readers never wait (WAL), a
/// writer takes SQLite's write lock, first reads what others appended and
/// only then stamps, so stamps stay strictly increasing across processes.
public final class SQLiteOperationStore: OperationStore {
  public let replica: ReplicaID
  let path: String
  private let clock: any WallClock
  private struct Guarded {
    var core: StoreCore
    /// The last row applied to `core`.
    var seq: Int64
    var database: SQLiteDatabase?
  }
  private let guarded: Locked<Guarded>
  /// The layout of the tables (`meta.format`); another value is refused.
  static let formatVersion = "1"

  /// Opens the store at `path`, creating it (0600, its folder 0700) when
  /// it does not exist; a new store takes `newReplica` (random when nil).
  public init(path: String, newReplica: ReplicaID? = nil, clock: any WallClock = SystemClock()) throws {
    self.path = path
    self.clock = clock
    let directory = (path as NSString).deletingLastPathComponent
    if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
      do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      } catch {
        throw StoreError.io(path: directory, operation: "create the folder", reason: "\(error)")
      }
    }
    let database: SQLiteDatabase
    do {
      database = try SQLiteDatabase(path: path, create: true)
      try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA busy_timeout=10000;")
      try database.execute(
        """
        CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS records(seq INTEGER PRIMARY KEY AUTOINCREMENT, stamp TEXT NOT NULL, record BLOB NOT NULL);
        """)
    } catch let failure as SQLiteDatabase.Failure {
      throw Self.storeError(failure, path: path, operation: "open")
    }
    var meta: [String: String] = [:]
    do {
      try database.query("SELECT key, value FROM meta") { row in meta[row.text(0) ?? ""] = row.text(1) }
      if let version = meta["format"], version != Self.formatVersion {
        throw StoreError.unsupportedVersion(path: path, found: Int(version) ?? -1)
      }
      if meta["replica"] == nil {
        // Two processes creating the store at once: the first id written wins, both read it back.
        try database.query("INSERT OR IGNORE INTO meta(key, value) VALUES ('replica', ?), ('format', ?)", [(newReplica ?? ReplicaID.random()).rawValue, Self.formatVersion])
        try database.query("SELECT value FROM meta WHERE key = 'replica'") { row in meta["replica"] = row.text(0) }
      }
    } catch let failure as SQLiteDatabase.Failure {
      throw Self.storeError(failure, path: path, operation: "read")
    }
    guard let text = meta["replica"], let replica = try? ReplicaID(text) else {
      throw StoreError.corrupt(path: path, offset: 0, reason: "the replica id '\(meta["replica"] ?? "")' is not valid")
    }
    self.replica = replica
    var state = Guarded(core: StoreCore(replica: replica), seq: 0, database: database)
    try Self.catchUp(&state, path: path)
    guarded = Locked(state)
  }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    guard !operations.isEmpty else {
      return try guarded.withLock { state in
        guard state.database != nil else { throw StoreError.closed }
        return []
      }
    }
    return try write { state in state.core.stamp(operations, now: self.clock.now()) }
  }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] {
    try write { state in state.core.newer(records) }
  }

  /// One write: SQLite's write lock, what other processes appended, the
  /// records `make` decides on, their rows committed, and only then applied.
  private func write(_ make: (inout Guarded) -> [OperationRecord]) throws -> [OperationRecord] {
    try guarded.withLock { state in
      guard let database = state.database else { throw StoreError.closed }
      do {
        try database.execute("BEGIN IMMEDIATE")
        do {
          try Self.catchUp(&state, path: path)
          let records = make(&state)
          let encoder = JSONEncoder()
          var last = state.seq
          try database.run(
            "INSERT INTO records(stamp, record) VALUES (?, ?)", each: try records.map { [$0.stamp.description, try encoder.encode($0)] })
          try database.query("SELECT last_insert_rowid()") { row in last = row.integer(0) }
          try database.execute("COMMIT")
          state.core.apply(records)
          state.seq = last
          return records
        } catch {
          try? database.execute("ROLLBACK")
          throw error
        }
      } catch let failure as SQLiteDatabase.Failure {
        throw Self.storeError(failure, path: path, operation: "write")
      }
    }
  }

  /// Applies rows written after `state.seq` (by this or another process).
  private static func catchUp(_ state: inout Guarded, path: String) throws {
    guard let database = state.database else { throw StoreError.closed }
    let decoder = JSONDecoder()
    var rows: [(Int64, OperationRecord)] = []
    var damaged: (Int64, String)?
    do {
      try database.query("SELECT seq, record FROM records WHERE seq > ? ORDER BY seq", [state.seq]) { row in
        guard damaged == nil else { return }
        do {
          rows.append((row.integer(0), try decoder.decodeOutside(OperationRecord.self, from: row.data(1))))
        } catch {
          damaged = (row.integer(0), "\(error)")
        }
      }
    } catch let failure as SQLiteDatabase.Failure {
      throw storeError(failure, path: path, operation: "read")
    }
    if let (seq, reason) = damaged {
      throw StoreError.corrupt(path: path, offset: UInt64(seq), reason: "record row \(seq) cannot be read: \(reason)")
    }
    guard let last = rows.last?.0 else { return }
    state.core.apply(rows.map(\.1))
    state.seq = last
  }

  public func state() -> StoreState {
    guarded.withLock { state in
      // Another process may have written; a read that cannot catch up shows what this one has.
      try? Self.catchUp(&state, path: path)
      return state.core.state
    }
  }

  public func operations(since: HLCTimestamp?) throws -> [OperationRecord] {
    try guarded.withLock { state in
      guard state.database != nil else { throw StoreError.closed }
      try Self.catchUp(&state, path: path)
      return state.core.state.records(since: since)
    }
  }

  public func describe() -> StoreDescription {
    let (state, rows) = guarded.withLock { ($0.core.state, $0.seq) }
    let bytes = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    return StoreDescription(
      kind: "sqlite", location: path,
      details: [
        ("replica", replica.rawValue), ("records", String(rows)), ("bytes", String(bytes)), ("tasks", String(state.tasks.count)),
        ("places", String(state.places.count)), ("journal", "WAL, synchronous=FULL"),
      ])
  }

  public func close() {
    guarded.withLock { state in
      state.database?.close()
      state.database = nil
    }
  }

  static func storeError(_ failure: SQLiteDatabase.Failure, path: String, operation: String) -> StoreError {
    let message = failure.message
    if message.contains("not a database") || message.contains("malformed") {
      return .corrupt(path: path, offset: 0, reason: message)
    }
    if message.contains("readonly") || message.contains("read-only") || message.contains("attempt to write") {
      return .readOnly(path: path, reason: message)
    }
    return .io(path: path, operation: operation, reason: message)
  }
}
