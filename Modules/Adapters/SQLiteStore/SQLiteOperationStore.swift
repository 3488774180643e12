import Domain
import Foundation
import Locking
import Persistence

/// The `sqlite:PATH` store: the operation log as rows of one SQLite table
/// (each record in the stores' binary form, `RecordCodec`, in the order
/// written, indexed by the key it is read with), the replica's id beside
/// it, an R*Tree of the tasks' circles (`SQLiteTaskSpots`) and the places'
/// names and list memberships (`SQLiteSideTable`). WAL with
/// `synchronous=FULL`, so a batch is acknowledged only once its commit is
/// on disk and a batch is never partly there. Several processes may open
/// the same file: readers never wait (WAL), a writer takes SQLite's write
/// lock, first reads what others appended and only then stamps, so stamps
/// stay strictly increasing across processes. Opened `lazily`, the whole
/// state is read only when `state()`, a write or `refresh()` first needs
/// it; `records(of:)`, `taskKeys()`, `tasks(near:)` and `placeNames()`
/// read only the rows they need.
public final class SQLiteOperationStore: PartialReading {
  public let replica: ReplicaID
  let path: String
  private let clock: any WallClock
  private struct Guarded {
    var core: StoreCore
    /// The last row applied to `core`.
    var seq: Int64
    var database: SQLiteDatabase?
    /// Whether `core` holds the whole state (read at least once); a lazily
    /// opened store writes in place until then.
    var whole = false
  }
  private let guarded: Locked<Guarded>
  /// The layout of the tables (`meta.format`); another value is refused,
  /// but for "1" (records as JSON without `owner`, no task tables),
  /// brought up to this one when opened.
  static let formatVersion = "2"

  /// Opens the store at `path`, creating it (0600, its folder 0700) when
  /// it does not exist; a new store takes `newReplica` (random when nil).
  public init(path: String, newReplica: ReplicaID? = nil, clock: any WallClock = SystemClock(), lazily: Bool = false) throws {
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
      // Reads map the file (up to 256 MiB) instead of copying each page
      // into SQLite's cache: `task list` reads 10,000 rows a run.
      try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA busy_timeout=10000; PRAGMA mmap_size=268435456;")
      try database.execute(
        """
        CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS records(seq INTEGER PRIMARY KEY AUTOINCREMENT, stamp TEXT NOT NULL, record BLOB NOT NULL, owner TEXT);
        """)
    } catch let failure as SQLiteDatabase.Failure {
      throw Self.storeError(failure, path: path, operation: "open")
    }
    var meta: [String: String] = [:]
    do {
      try database.query("SELECT key, value FROM meta") { row in meta[row.text(0) ?? ""] = row.text(1) }
      if let version = meta["format"], version != Self.formatVersion, version != "1" {
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
    if meta["format"] == "1" { try Self.upgrade(&state, replica: replica, path: path) }
    do {
      try database.execute("CREATE INDEX IF NOT EXISTS records_owner ON records(owner);" + SQLiteTaskSpots.schema + SQLiteSideTable.schema)
    } catch let failure as SQLiteDatabase.Failure {
      throw Self.storeError(failure, path: path, operation: "open")
    }
    if !lazily { try Self.catchUp(&state, path: path) }
    guarded = Locked(state)
  }

  /// Brings a format "1" store up to this one in one transaction: each
  /// row is written again in binary with the key it is read with, the task
  /// tables are built. Another process that got there first leaves
  /// nothing to do.
  private static func upgrade(_ state: inout Guarded, replica: ReplicaID, path: String) throws {
    guard let database = state.database else { throw StoreError.closed }
    do {
      try database.execute("BEGIN IMMEDIATE")
      do {
        var format: String?
        try database.query("SELECT value FROM meta WHERE key = 'format'") { row in format = row.text(0) }
        if format == "1" {
          try database.execute("ALTER TABLE records ADD COLUMN owner TEXT;" + SQLiteTaskSpots.schema + SQLiteSideTable.schema)
          var rows: [[any Sendable]] = []
          let decoder = JSONDecoder()
          try database.query("SELECT seq, record FROM records") { row in
            let record: OperationRecord
            do {
              record = try decoder.decodeOutside(OperationRecord.self, from: row.data(1))
            } catch {
              throw StoreError.corrupt(path: path, offset: UInt64(row.integer(0)), reason: "record row \(row.integer(0)) cannot be read: \(error)")
            }
            rows.append([Data(RecordCodec.encode([record])), record.operation.key.owner.description, row.integer(0)])
          }
          try database.run("UPDATE records SET record = ?, owner = ? WHERE seq = ?", each: rows)
          try catchUp(&state, path: path)
          try SQLiteTaskSpots.rebuild(state: state.core.state, database: database)
          try database.query("UPDATE meta SET value = ? WHERE key = 'format'", [formatVersion])
        }
        try database.execute("COMMIT")
      } catch {
        try? database.execute("ROLLBACK")
        state.core = StoreCore(replica: replica)
        state.seq = 0
        state.whole = false
        throw error
      }
    } catch let failure as SQLiteDatabase.Failure {
      throw storeError(failure, path: path, operation: "upgrade")
    }
  }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    guard !operations.isEmpty else {
      return try guarded.withLock { state in
        guard state.database != nil else { throw StoreError.closed }
        return []
      }
    }
    return try write(inPlace: operations) { state in state.core.stamp(operations, now: self.clock.now()) }
  }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] {
    try write { state in state.core.newer(records) }
  }

  /// One write: SQLite's write lock, what other processes appended, the
  /// records `make` decides on, their rows committed, and only then applied.
  /// A store that has not read the whole state writes `inPlace` instead,
  /// reading only what it changes, where it can (`writeInPlace`).
  private func write(inPlace operations: [StoreOperation]? = nil, _ make: (inout Guarded) -> [OperationRecord]) throws -> [OperationRecord] {
    try guarded.withLock { state in
      guard let database = state.database else { throw StoreError.closed }
      do {
        try database.execute("BEGIN IMMEDIATE")
        var committed = state.seq
        do {
          if let operations, !state.whole,
            let records = try Self.writeInPlace(operations, replica: replica, now: clock.now(), database: database, path: path)
          {
            try database.execute("COMMIT")
            return records
          }
          try Self.catchUp(&state, path: path)
          committed = state.seq
          let records = make(&state)
          // Nothing to write: SQLite's last row id would be this connection's
          // (0), which marked the place names and the newest stamp as behind.
          guard !records.isEmpty else {
            try database.execute("COMMIT")
            return []
          }
          var last = state.seq
          try Self.insert(records, database: database)
          try database.query("SELECT last_insert_rowid()") { row in last = row.integer(0) }
          // The task tables are written from the state after the records,
          // in their transaction; a failure from here on forgets the state
          // read so far, and the next use reads it again.
          state.core.apply(records)
          state.seq = last
          let tasks = try SQLiteTaskSpots.update(after: records, state: state.core.state, database: database)
          try SQLiteSideTable.update(after: records, tasks: tasks, before: committed, last: last, state: state.core.state, database: database)
          try SQLiteLatest.write(seq: last, stamp: state.core.clock.last, database: database)
          try database.execute("COMMIT")
          return records
        } catch {
          try? database.execute("ROLLBACK")
          if state.seq != committed {
            state.core = StoreCore(replica: replica)
            state.seq = 0
            state.whole = false
          }
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
    var records: [OperationRecord] = []
    var last = state.seq
    do {
      try database.query("SELECT seq, record FROM records WHERE seq > ? ORDER BY seq", [state.seq]) { row in
        records.append(try Self.record(row, path: path))
        last = row.integer(0)
      }
    } catch let failure as SQLiteDatabase.Failure {
      throw storeError(failure, path: path, operation: "read")
    }
    state.whole = true
    guard last != state.seq else { return }
    // Room first: a first read of 100,000 places otherwise rehashed the
    // dictionaries some seventeen times as they grew (a third of the read).
    state.core.reserveCapacity(records.count)
    state.core.apply(records)
    state.seq = last
  }

  /// The record in a row's `seq, record` columns; a row that does not
  /// decode is damage, named by its row number.
  static func record(_ row: SQLiteDatabase.Statement, path: String) throws -> OperationRecord {
    let seq = row.integer(0)
    let decoded = try? row.withBytes(1) { try RecordCodec.decode($0, path: path, offset: Int(seq)) }
    guard let decoded, decoded.count == 1 else {
      throw StoreError.corrupt(path: path, offset: UInt64(seq), reason: "record row \(seq) cannot be read: not one record in the stores' binary form")
    }
    return decoded[0]
  }

  /// Runs `read` in one read transaction (every query sees the same
  /// moment, with what every process committed before it).
  func reading<T>(_ read: (SQLiteDatabase) throws -> T) throws -> T {
    try guarded.withLock { state in
      guard let database = state.database else { throw StoreError.closed }
      do {
        try database.execute("BEGIN")
        defer { try? database.execute("COMMIT") }
        return try read(database)
      } catch let failure as SQLiteDatabase.Failure {
        throw Self.storeError(failure, path: path, operation: "read")
      }
    }
  }

  /// Whether this handle has read the whole state (a lazily opened one
  /// reads it at first need, and writes in place until then).
  public var isReadWhole: Bool { guarded.withLock { $0.whole } }

  public func refresh() throws {
    try guarded.withLock { state in try Self.catchUp(&state, path: path) }
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
    let (state, rows) = guarded.withLock { state in
      try? Self.catchUp(&state, path: path)
      return (state.core.state, state.seq)
    }
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
