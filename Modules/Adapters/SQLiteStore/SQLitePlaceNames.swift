import Domain
import Foundation
import Persistence

/// The table that lets `placeNames()` answer without decoding every
/// place: one `place_names` row per place held, with its name. Written in
/// the transaction of the records that change it, from the state after
/// them, and current up to the record row `meta.names_seq` names. A store
/// written by a build without the table (or not since) is behind that
/// mark: its names are read from the whole state until the next write,
/// which writes the table again from it.
enum SQLitePlaceNames {
  static let schema = """
    CREATE TABLE IF NOT EXISTS place_names(place TEXT PRIMARY KEY, name TEXT NOT NULL);
    """

  /// Brings the table to `state` after `records` were written as rows up
  /// to `last`; rows before them ended at `before`. Only the places the
  /// records touched change, unless the table was behind (then every row
  /// is written again).
  static func update(after records: [OperationRecord], before: Int64, last: Int64, state: StoreState, database: SQLiteDatabase) throws {
    guard last != before else { return }
    if try mark(database) ?? 0 == before {
      var places: Set<PlaceID> = []
      for record in records {
        if case .place(let id) = record.operation.key { places.insert(id) }
      }
      let ids = places.map(\.rawValue)
      try database.run("DELETE FROM place_names WHERE place = ?", each: ids.map { [$0] })
      try database.run("INSERT INTO place_names(place, name) VALUES (?, ?)", each: places.compactMap { id in state.places[id].map { [id.rawValue, $0.name] } })
    } else {
      try database.execute("DELETE FROM place_names")
      try database.run("INSERT INTO place_names(place, name) VALUES (?, ?)", each: state.places.values.map { [$0.id.rawValue, $0.name] })
    }
    try database.query("INSERT OR REPLACE INTO meta(key, value) VALUES ('names_seq', ?)", [String(last)])
  }

  /// Every place's name, or nil when the table is behind the records
  /// (run inside a read transaction, so both are of one moment).
  static func names(_ database: SQLiteDatabase) throws -> [(id: PlaceID, name: String)]? {
    var last: Int64 = 0
    try database.query("SELECT COALESCE(MAX(seq), 0) FROM records") { row in last = row.integer(0) }
    guard try mark(database) ?? 0 == last else { return nil }
    var names: [(id: PlaceID, name: String)] = []
    try database.query("SELECT place, name FROM place_names") { row in
      if let id = row.text(0), let name = row.text(1) { names.append((PlaceID(id), name)) }
    }
    return names
  }

  /// The row the table is current up to (nil: never written; a store
  /// with no rows has nothing to be behind).
  static func mark(_ database: SQLiteDatabase) throws -> Int64? {
    var mark: Int64?
    try database.query("SELECT value FROM meta WHERE key = 'names_seq'") { row in mark = row.text(0).flatMap { Int64($0) } }
    return mark
  }
}
