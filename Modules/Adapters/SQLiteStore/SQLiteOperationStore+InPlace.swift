import Domain
import Foundation
import Persistence

extension SQLiteOperationStore {
  /// A write that reads only what it changes, in the caller's write
  /// transaction (the CLI, which opens the store lazily and has not read
  /// the whole state): the rows of the keys written, of the tasks whose
  /// circles they move and of those tasks' places and the places of the
  /// tasks written; stamps after the
  /// store's newest stamp (`SQLiteLatest`); the task tables brought up to
  /// date from those rows alone. Nil, with nothing written, when the
  /// store cannot say its newest stamp or its place names or task circles lag (a store
  /// last written by an older build): the whole state decides then.
  static func writeInPlace(
    _ operations: [StoreOperation], replica: ReplicaID, now: Date, database: SQLiteDatabase, path: String
  ) throws -> [OperationRecord]? {
    var last: Int64 = 0
    try database.query("SELECT COALESCE(MAX(seq), 0) FROM records") { row in last = row.integer(0) }
    guard let latest = try SQLiteLatest.read(database), try SQLiteSideTable.current(through: last, database: database),
      try SQLiteTaskSpots.isCurrent(database)
    else { return nil }
    var owners = Set(operations.map { $0.key.owner.description })
    // Tasks whose circles sit at a place written here are rewritten too.
    let places = operations.compactMap { operation -> String? in
      if case .place(let id) = operation.key { id.rawValue } else { nil }
    }
    for chunk in SQLiteChunks.of(places) {
      try database.query("SELECT DISTINCT task FROM task_spots WHERE place IN (\(SQLiteChunks.marks(chunk.count)))", chunk) { row in
        if let task = row.text(0) { owners.insert(EntityKey.task(TaskID(task)).description) }
      }
    }
    var state = StoreState(applying: try rows(of: owners, database: database, path: path))
    // …and so are their places, which give the circles their centres, as
    // are the places of the tasks written (a new task at a saved place
    // had no box and no place name: `check --at` did not find it).
    var tied = state.placeKeys
    for operation in operations {
      guard case .put(.task(let task)) = operation else { continue }
      for location in task.locations { if case .place(let id) = location.target { tied.insert(EntityKey.place(id)) } }
    }
    state.apply(contentsOf: try rows(of: Set(tied.map(\.description)).subtracting(owners), database: database, path: path))
    var core = StoreCore(replica: replica, state: state)
    core.observe(latest.stamp)
    if let newer = try SQLiteLatest.newest(after: latest.seq, database: database) { core.observe(newer) }
    let written = core.stamp(operations, now: now)
    guard !written.isEmpty else { return [] }
    let before = last
    try insert(written, database: database)
    try database.query("SELECT last_insert_rowid()") { row in last = row.integer(0) }
    core.apply(written)
    let tasks = try SQLiteTaskSpots.update(after: written, state: core.state, database: database)
    try SQLiteSideTable.update(after: written, tasks: tasks, before: before, last: last, state: core.state, database: database)
    try SQLiteLatest.write(seq: last, stamp: core.clock.last, database: database)
    return written
  }

  /// Every row of these owners ("task/ID", …), by the owner index.
  static func rows(of owners: Set<String>, database: SQLiteDatabase, path: String) throws -> [OperationRecord] {
    var records: [OperationRecord] = []
    for chunk in SQLiteChunks.of(owners.sorted()) {
      try database.query("SELECT seq, record FROM records WHERE owner IN (\(SQLiteChunks.marks(chunk.count)))", chunk) { row in
        records.append(try record(row, path: path))
      }
    }
    return records
  }

  static func insert(_ records: [OperationRecord], database: SQLiteDatabase) throws {
    try database.run(
      "INSERT INTO records(stamp, record, owner) VALUES (?, ?, ?)",
      each: records.map { [$0.stamp.description, Data(RecordCodec.encode([$0])), $0.operation.key.owner.description] })
  }
}
