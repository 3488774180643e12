import Domain
import Foundation
import Persistence

/// The tables that let `tasks(near:)` answer without the whole state: one
/// `task_spots` row per task location (the place it is tied to, if any)
/// and, for each location with a coordinate, its circle's box in the
/// `task_boxes` R*Tree under the same id. Written in the transaction of
/// the records that change them, from the state after those records.
///
/// `meta` `spots2` says every row was made by a build that writes a new
/// task's circle at its saved place in place (before 2026-12-05, stop 53,
/// a task added in place at a saved place got no box): without it, the
/// next write through the whole state rebuilds every row, and writes in
/// place wait for that.
enum SQLiteTaskSpots {
  static let markKey = "spots2"

  static let schema = """
    CREATE TABLE IF NOT EXISTS task_spots(id INTEGER PRIMARY KEY, task TEXT NOT NULL, place TEXT);
    CREATE INDEX IF NOT EXISTS task_spots_task ON task_spots(task);
    CREATE INDEX IF NOT EXISTS task_spots_place ON task_spots(place);
    CREATE VIRTUAL TABLE IF NOT EXISTS task_boxes USING rtree(id, min_lat, max_lat, min_lon, max_lon);
    """

  /// Rewrites the rows of every task `records` touched and of every task
  /// tied to a place they touched (a moved or deleted place moves its
  /// tasks' circles), from `state`, which has the records applied; those
  /// tasks' ids (every task's, when it rebuilt them all).
  static func update(after records: [OperationRecord], state: StoreState, database: SQLiteDatabase) throws -> Set<String> {
    guard try isCurrent(database) else {
      try rebuild(state: state, database: database)
      return Set(state.tasks.keys.map(\.rawValue))
    }
    var tasks: Set<String> = []
    var places: Set<String> = []
    for record in records {
      switch record.operation.key {
      case .task(let id): tasks.insert(id.rawValue)
      case .place(let id): places.insert(id.rawValue)
      default: break
      }
    }
    for chunk in SQLiteChunks.of(Array(places)) {
      try database.query("SELECT DISTINCT task FROM task_spots WHERE place IN (\(SQLiteChunks.marks(chunk.count)))", chunk) { row in
        if let task = row.text(0) { tasks.insert(task) }
      }
    }
    try rewrite(tasks.sorted(), state: state, database: database)
    return tasks
  }

  /// Every task's rows again, from scratch (a store written before the
  /// tables existed, or before `spots2`), from the whole state.
  static func rebuild(state: StoreState, database: SQLiteDatabase) throws {
    try database.execute("DELETE FROM task_spots; DELETE FROM task_boxes;")
    try rewrite(state.tasks.keys.map(\.rawValue).sorted(), state: state, database: database)
    try database.query("INSERT OR REPLACE INTO meta(key, value) VALUES ('\(markKey)', '1')")
  }

  /// Whether every row was made by this build's rules (`spots2`).
  static func isCurrent(_ database: SQLiteDatabase) throws -> Bool {
    var found = false
    try database.query("SELECT 1 FROM meta WHERE key = ?", [markKey]) { _ in found = true }
    return found
  }

  private static func rewrite(_ tasks: [String], state: StoreState, database: SQLiteDatabase) throws {
    guard !tasks.isEmpty else { return }
    try database.run("DELETE FROM task_boxes WHERE id IN (SELECT id FROM task_spots WHERE task = ?)", each: tasks.map { [$0] })
    try database.run("DELETE FROM task_spots WHERE task = ?", each: tasks.map { [$0] })
    var spots: [[any Sendable]] = []
    var boxes: [(index: Int, box: CircleBox)] = []
    for text in tasks {
      for spot in state.spots(of: TaskID(text)) {
        spots.append([text, spot.place.map { $0.rawValue as any Sendable } ?? SQLiteDatabase.Null()])
        if let box = spot.box { boxes.append((spots.count - 1, box)) }
      }
    }
    var ids: [Int64] = []
    ids.reserveCapacity(spots.count)
    try database.run("INSERT INTO task_spots(task, place) VALUES (?, ?) RETURNING id", each: spots) { row in ids.append(row.integer(0)) }
    try database.run(
      "INSERT INTO task_boxes(id, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)",
      each: boxes.map { [ids[$0.index], $0.box.minLatitude, $0.box.maxLatitude, $0.box.minLongitude, $0.box.maxLongitude] })
  }

  /// The tasks with a box that holds `point`.
  static func tasks(near point: Coordinate, database: SQLiteDatabase) throws -> Set<TaskID> {
    var found: Set<TaskID> = []
    try database.query(
      """
      SELECT DISTINCT s.task FROM task_boxes b JOIN task_spots s ON s.id = b.id
      WHERE b.min_lat <= ? AND b.max_lat >= ? AND b.min_lon <= ? AND b.max_lon >= ?
      """, [point.latitude, point.latitude, point.longitude, point.longitude]
    ) { row in
      if let text = row.text(0) { found.insert(TaskID(text)) }
    }
    return found
  }
}

/// `IN (…)` lists in pieces SQLite's limit on bound values allows.
enum SQLiteChunks {
  static let size = 500

  static func of(_ values: [String]) -> [[any Sendable]] {
    stride(from: 0, to: values.count, by: size).map { Array(values[$0..<min($0 + size, values.count)]) }
  }

  static func marks(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }
}
