import Domain
import Foundation
import Persistence

/// A table that answers a question without decoding records:
/// `place_names` (one row per place held, with its name: `placeNames()`),
/// `place_folded` (the same places, each with its name folded as
/// `SearchText.fold` folds it, indexed: `placeNames(startingWith:)`),
/// `list_places` (one row per membership held: `places(inList:)`) and
/// `task_titles` (one row per task held, with its title and whether it is
/// completed: `taskTitles()`) and `task_listings` (one row per task held,
/// with its `TaskListing.encoded`: `taskListings()`).
/// Each is written in the transaction of the records that change it, from
/// the state after them, and is current up to the record row its mark in
/// `meta` names. A store written by a build without the table (or not
/// since) is behind that mark: the question is answered from the whole
/// state until the next write, which writes the table again from it.
struct SQLiteSideTable: Sendable {
  let table: String
  /// The row's columns; `keyColumn` is the one rows are rewritten by.
  let columns: [String]
  let keyColumn: String
  let markKey: String
  /// The row keys (`keyColumn` values) records change, given the tasks
  /// they touched or whose places they touched (what `SQLiteTaskSpots`
  /// rewrote for them).
  let touched: @Sendable ([OperationRecord], Set<String>) -> Set<String>
  /// The rows `state` gives for the keys `ids` (every one when nil).
  let rows: @Sendable (StoreState, Set<String>?) -> [[any Sendable]]

  init(
    table: String, columns: [String], keyColumn: String, markKey: String,
    touched: @escaping @Sendable ([OperationRecord], Set<String>) -> Set<String>,
    rows: @escaping @Sendable (StoreState, Set<String>?) -> [[any Sendable]]
  ) {
    (self.table, self.columns, self.keyColumn, self.markKey, self.touched, self.rows) = (table, columns, keyColumn, markKey, touched, rows)
  }

  /// A table whose row a record changes is named by the record's key alone.
  init(
    table: String, columns: [String], keyColumn: String, markKey: String, touched key: @escaping @Sendable (EntityKey) -> String?,
    rows: @escaping @Sendable (StoreState, Set<String>?) -> [[any Sendable]]
  ) {
    self.init(
      table: table, columns: columns, keyColumn: keyColumn, markKey: markKey, touched: { records, _ in Set(records.compactMap { key($0.operation.key) }) },
      rows: rows)
  }

  /// A place, or a membership of one, changes that place's rows.
  static let place: @Sendable (EntityKey) -> String? = { key in
    switch key {
    case .place(let id): id.rawValue
    case .membership(let membership): membership.place.rawValue
    default: nil
    }
  }

  static let names = SQLiteSideTable(table: "place_names", columns: ["place", "name"], keyColumn: "place", markKey: "names_seq", touched: place) { state, ids in
    guard let ids else { return state.places.values.map { [$0.id.rawValue, $0.name] } }
    return ids.compactMap { id in state.places[PlaceID(id)].map { [id, $0.name] } }
  }

  static let lists = SQLiteSideTable(table: "list_places", columns: ["list", "place"], keyColumn: "place", markKey: "lists_seq", touched: place) { state, ids in
    // Most writes touch no place (a task, a setting): no pass over every membership for them.
    if let ids, ids.isEmpty { return [] }
    return state.memberships.filter { ids?.contains($0.place.rawValue) ?? true }.map { [$0.list.rawValue, $0.place.rawValue] }
  }

  /// Its mark names the folding: were `SearchText.fold` to change, a new
  /// key would make every store write the table again.
  static let folded = SQLiteSideTable(table: "place_folded", columns: ["place", "folded"], keyColumn: "place", markKey: "folded1_seq", touched: place) { state, ids in
    guard let ids else { return state.places.values.map { [$0.id.rawValue, SearchText.fold($0.name)] } }
    return ids.compactMap { id in state.places[PlaceID(id)].map { [id, SearchText.fold($0.name)] } }
  }

  static let titles = SQLiteSideTable(
    table: "task_titles", columns: ["task", "title", "completed"], keyColumn: "task", markKey: "titles_seq",
    touched: { key in if case .task(let id) = key { id.rawValue } else { nil } }
  ) { state, ids in
    func row(_ task: ReminderTask) -> [any Sendable] { [task.id.rawValue, task.title, task.state.isCompleted ? "1" : "0"] }
    guard let ids else { return state.tasks.values.map(row) }
    return ids.compactMap { id in state.tasks[TaskID(id)].map(row) }
  }

  /// A task, or a place it is tied to (its name, position or hours), changes the task's row.
  static let listings = SQLiteSideTable(
    table: "task_listings", columns: ["task", "listing"], keyColumn: "task", markKey: "listings1_seq", touched: { _, tasks in tasks }
  ) { state, ids in
    func row(_ listing: TaskListing) -> [any Sendable] { [listing.id.rawValue, Data(listing.encoded)] }
    guard let ids else { return state.taskListings.map(row) }
    return ids.compactMap { id in state.listing(of: TaskID(id)).map(row) }
  }

  static let all = [names, folded, lists, titles, listings]

  static let schema = """
    CREATE TABLE IF NOT EXISTS place_names(place TEXT PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS place_folded(place TEXT PRIMARY KEY, folded TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS place_folded_folded ON place_folded(folded);
    CREATE TABLE IF NOT EXISTS list_places(list TEXT NOT NULL, place TEXT NOT NULL, PRIMARY KEY(list, place));
    CREATE INDEX IF NOT EXISTS list_places_place ON list_places(place);
    CREATE TABLE IF NOT EXISTS task_titles(task TEXT PRIMARY KEY, title TEXT NOT NULL, completed INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS task_listings(task TEXT PRIMARY KEY, listing BLOB NOT NULL);
    """

  /// Brings every table to `state` after `records` were written as rows
  /// up to `last`; rows before them ended at `before`; `tasks` are the
  /// tasks they touched or whose places they touched
  /// (`SQLiteTaskSpots.update`'s answer). Only the rows of
  /// the keys the records touched change (a place: itself or its
  /// memberships; a task), unless a table was behind (then its every row
  /// is written again).
  static func update(
    after records: [OperationRecord], tasks: Set<String>, before: Int64, last: Int64, state: StoreState, database: SQLiteDatabase
  ) throws {
    guard last != before else { return }
    for table in all {
      let keys = table.touched(records, tasks)
      try table.update(keys: keys, before: before, last: last, state: state, database: database)
    }
  }

  private func update(keys: Set<String>, before: Int64, last: Int64, state: StoreState, database: SQLiteDatabase) throws {
    let insert = "INSERT INTO \(table)(\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    if try mark(database) ?? 0 == before {
      try database.run("DELETE FROM \(table) WHERE \(keyColumn) = ?", each: keys.map { [$0] })
      try database.run(insert, each: rows(state, keys))
    } else {
      try database.execute("DELETE FROM \(table)")
      try database.run(insert, each: rows(state, nil))
    }
    try database.query("INSERT OR REPLACE INTO meta(key, value) VALUES ('\(markKey)', ?)", [String(last)])
  }

  /// Whether every table is current up to the record row `last`.
  static func current(through last: Int64, database: SQLiteDatabase) throws -> Bool {
    try all.allSatisfy { try $0.mark(database) ?? 0 == last }
  }

  /// Every place's name, or nil when the table is behind the records
  /// (run inside a read transaction, so both are of one moment).
  static func names(_ database: SQLiteDatabase) throws -> [(id: PlaceID, name: String)]? {
    guard try self.names.isCurrent(database) else { return nil }
    var names: [(id: PlaceID, name: String)] = []
    try database.query("SELECT place, name FROM place_names") { row in
      if let id = row.text(0), let name = row.text(1) { names.append((PlaceID(id), name)) }
    }
    return names
  }

  /// The places whose folded name starts with `folded` (ASCII) and those
  /// whose id starts with `idPrefix` (byte for byte), with their names; nil when
  /// a table is behind the records. Both by an index's range: every text
  /// starting with P sorts from P up to P followed by U+10FFFF, which no
  /// folded name or id holds.
  static func names(startingWith folded: String, idPrefix: String?, database: SQLiteDatabase) throws -> [(id: PlaceID, name: String)]? {
    guard try names.isCurrent(database), try self.folded.isCurrent(database) else { return nil }
    var found: [PlaceID: String] = [:]
    try database.query(
      "SELECT n.place, n.name FROM place_folded f JOIN place_names n ON n.place = f.place WHERE f.folded >= ? AND f.folded < ?",
      [folded, folded + "\u{10FFFF}"]
    ) { row in
      if let id = row.text(0), let name = row.text(1) { found[PlaceID(id)] = name }
    }
    if let idPrefix {
      try database.query("SELECT place, name FROM place_names WHERE place >= ? AND place < ?", [idPrefix, idPrefix + "\u{10FFFF}"]) { row in
        if let id = row.text(0), let name = row.text(1) { found[PlaceID(id)] = name }
      }
    }
    return found.map { ($0.key, $0.value) }
  }

  /// Every task's title and whether it is completed, or nil when the
  /// table is behind the records.
  static func titles(_ database: SQLiteDatabase) throws -> [TaskTitle]? {
    guard try titles.isCurrent(database) else { return nil }
    var titles: [TaskTitle] = []
    try database.query("SELECT task, title, completed FROM task_titles") { row in
      if let id = row.text(0), let title = row.text(1) { titles.append(TaskTitle(id: TaskID(id), title: title, completed: row.integer(2) == 1)) }
    }
    return titles
  }

  /// Every task's listing, or nil when the table is behind the records
  /// or a listing does not decode (a row written by a newer build).
  static func listings(_ database: SQLiteDatabase) throws -> TaskListingTable? {
    guard try listings.isCurrent(database) else { return nil }
    var table = TaskListingTable()
    var whole = true
    try database.query("SELECT listing FROM task_listings") { row in
      guard whole else { return }
      do { try row.withBytes(0) { try table.append(encoded: $0) } } catch { whole = false }
    }
    return whole ? table : nil
  }

  /// The places `list` holds, or nil when the table is behind the records.
  static func places(inList list: ListID, database: SQLiteDatabase) throws -> Set<PlaceID>? {
    guard try lists.isCurrent(database) else { return nil }
    var places: Set<PlaceID> = []
    try database.query("SELECT place FROM list_places WHERE list = ?", [list.rawValue]) { row in
      if let id = row.text(0) { places.insert(PlaceID(id)) }
    }
    return places
  }

  /// How many places each list holds, or nil when the table is behind the records.
  static func listCounts(_ database: SQLiteDatabase) throws -> [ListID: Int]? {
    guard try lists.isCurrent(database) else { return nil }
    var counts: [ListID: Int] = [:]
    try database.query("SELECT list, COUNT(*) FROM list_places GROUP BY list") { row in
      if let list = row.text(0) { counts[ListID(list)] = Int(row.integer(1)) }
    }
    return counts
  }

  /// Whether the table is current up to the records' last row.
  private func isCurrent(_ database: SQLiteDatabase) throws -> Bool {
    var last: Int64 = 0
    try database.query("SELECT COALESCE(MAX(seq), 0) FROM records") { row in last = row.integer(0) }
    return try mark(database) ?? 0 == last
  }

  /// The row the table is current up to (nil: never written; a store
  /// with no rows has nothing to be behind).
  func mark(_ database: SQLiteDatabase) throws -> Int64? {
    var mark: Int64?
    try database.query("SELECT value FROM meta WHERE key = ?", [markKey]) { row in mark = row.text(0).flatMap { Int64($0) } }
    return mark
  }
}
