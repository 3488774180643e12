import Domain
import Foundation
import Persistence

/// A table that answers a question about places without decoding them:
/// `place_names` (one row per place held, with its name: `placeNames()`),
/// `place_folded` (the same places, each with its name folded as
/// `SearchText.fold` folds it, indexed: `placeNames(startingWith:)`) and
/// `list_places` (one row per membership held: `places(inList:)`).
/// Each is written in the transaction of the records that change it, from
/// the state after them, and is current up to the record row its mark in
/// `meta` names. A store written by a build without the table (or not
/// since) is behind that mark: the question is answered from the whole
/// state until the next write, which writes the table again from it.
struct SQLitePlaceTable: Sendable {
  let table: String
  /// The row's two columns; `placeColumn` is the one rows are rewritten by.
  let columns: (String, String)
  let placeColumn: String
  let markKey: String
  /// The rows `state` gives for the places `ids` (every place when nil).
  let rows: @Sendable (StoreState, Set<PlaceID>?) -> [[String]]

  static let names = SQLitePlaceTable(table: "place_names", columns: ("place", "name"), placeColumn: "place", markKey: "names_seq") { state, ids in
    guard let ids else { return state.places.values.map { [$0.id.rawValue, $0.name] } }
    return ids.compactMap { id in state.places[id].map { [id.rawValue, $0.name] } }
  }

  static let lists = SQLitePlaceTable(table: "list_places", columns: ("list", "place"), placeColumn: "place", markKey: "lists_seq") { state, ids in
    // Most writes touch no place (a task, a setting): no pass over every membership for them.
    if let ids, ids.isEmpty { return [] }
    return state.memberships.filter { ids?.contains($0.place) ?? true }.map { [$0.list.rawValue, $0.place.rawValue] }
  }

  /// Its mark names the folding: were `SearchText.fold` to change, a new
  /// key would make every store write the table again.
  static let folded = SQLitePlaceTable(table: "place_folded", columns: ("place", "folded"), placeColumn: "place", markKey: "folded1_seq") { state, ids in
    guard let ids else { return state.places.values.map { [$0.id.rawValue, SearchText.fold($0.name)] } }
    return ids.compactMap { id in state.places[id].map { [id.rawValue, SearchText.fold($0.name)] } }
  }

  static let all = [names, folded, lists]

  static let schema = """
    CREATE TABLE IF NOT EXISTS place_names(place TEXT PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS place_folded(place TEXT PRIMARY KEY, folded TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS place_folded_folded ON place_folded(folded);
    CREATE TABLE IF NOT EXISTS list_places(list TEXT NOT NULL, place TEXT NOT NULL, PRIMARY KEY(list, place));
    CREATE INDEX IF NOT EXISTS list_places_place ON list_places(place);
    """

  /// Brings every table to `state` after `records` were written as rows
  /// up to `last`; rows before them ended at `before`. Only the places
  /// the records touched (themselves or their memberships) change, unless
  /// a table was behind (then its every row is written again).
  static func update(after records: [OperationRecord], before: Int64, last: Int64, state: StoreState, database: SQLiteDatabase) throws {
    guard last != before else { return }
    var places: Set<PlaceID> = []
    for record in records {
      switch record.operation.key {
      case .place(let id): places.insert(id)
      case .membership(let membership): places.insert(membership.place)
      default: break
      }
    }
    for table in all { try table.update(places: places, before: before, last: last, state: state, database: database) }
  }

  private func update(places: Set<PlaceID>, before: Int64, last: Int64, state: StoreState, database: SQLiteDatabase) throws {
    let insert = "INSERT INTO \(table)(\(columns.0), \(columns.1)) VALUES (?, ?)"
    if try mark(database) ?? 0 == before {
      try database.run("DELETE FROM \(table) WHERE \(placeColumn) = ?", each: places.map { [$0.rawValue] })
      try database.run(insert, each: rows(state, places))
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
  /// whose id starts with `idPrefix` (ASCII), with their names; nil when
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
