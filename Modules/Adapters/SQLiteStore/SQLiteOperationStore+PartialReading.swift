import Domain
import Foundation
import Persistence

extension SQLiteOperationStore {
  public func records(of keys: Set<EntityKey>) throws -> [OperationRecord] {
    try reading { database in try Self.rows(of: Set(keys.map(\.owner.description)), database: database, path: path) }
  }

  public func taskKeys() throws -> Set<EntityKey> { try keys(ofKind: "task") { .task(TaskID($0)) } }

  public func listKeys() throws -> Set<EntityKey> { try keys(ofKind: "list") { .list(ListID($0)) } }

  /// The key of every owner `KIND/ID`, made from its ID: a range of the
  /// owner index, up to `KIND0` ('0' follows '/').
  private func keys(ofKind kind: String, _ make: (String) -> EntityKey) throws -> Set<EntityKey> {
    try reading { database in
      var keys: Set<EntityKey> = []
      try database.query("SELECT DISTINCT owner FROM records WHERE owner >= ? AND owner < ?", [kind + "/", kind + "0"]) { row in
        if let owner = row.text(0) { keys.insert(make(String(owner.dropFirst(kind.count + 1)))) }
      }
      return keys
    }
  }

  public func settingKeys(startingWith prefix: String) throws -> Set<EntityKey> {
    let low = "setting/" + prefix
    // A range of the owner index, up to the prefix with its last byte one
    // higher; beyond ASCII, from the prefix on, checked by its start.
    let high = low.utf8.last.flatMap { $0 < 0x7F ? String(low.dropLast()) + String(UnicodeScalar($0 + 1)) : nil }
    return try reading { database in
      var keys: Set<EntityKey> = []
      let each: (SQLiteDatabase.Statement) throws -> Void = { row in
        if let owner = row.text(0), owner.hasPrefix(low) { keys.insert(.setting(String(owner.dropFirst("setting/".count)))) }
      }
      if let high {
        try database.query("SELECT DISTINCT owner FROM records WHERE owner >= ? AND owner < ?", [low, high], row: each)
      } else {
        try database.query("SELECT DISTINCT owner FROM records WHERE owner >= ? AND substr(owner, 1, ?) = ?", [low, Int64(low.unicodeScalars.count), low], row: each)
      }
      return keys
    }
  }

  public func tasks(near point: Coordinate) throws -> Set<TaskID> {
    try reading { database in try SQLiteTaskSpots.tasks(near: point, database: database) }
  }

  public func placeNames() throws -> [(id: PlaceID, name: String)] {
    if let names = try reading({ database in try SQLiteSideTable.names(database) }) { return names }
    try refresh()
    return state().placeNames
  }

  public func taskTitles() throws -> [TaskTitle] {
    if let titles = try reading({ database in try SQLiteSideTable.titles(database) }) { return titles }
    try refresh()
    return state().taskTitles
  }

  public func taskListings() throws -> TaskListingTable {
    if let listings = try reading({ database in try SQLiteSideTable.listings(database) }) { return listings }
    try refresh()
    return TaskListingTable(state().taskListings)
  }

  public func placeNames(startingWith folded: String, idPrefix: String?) throws -> [(id: PlaceID, name: String)]? {
    // Ids compared byte for byte, as the FileStore compares them: an accented name typed whole is an id prefix too.
    guard folded.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    return try reading { database in try SQLiteSideTable.names(startingWith: folded, idPrefix: idPrefix, database: database) }
  }

  public func places(inList list: ListID) throws -> Set<PlaceID> {
    if let places = try reading({ database in try SQLiteSideTable.places(inList: list, database: database) }) { return places }
    try refresh()
    return state().places(inList: list)
  }

  public func listCounts() throws -> [ListID: Int] {
    if let counts = try reading({ database in try SQLiteSideTable.listCounts(database) }) { return counts }
    try refresh()
    return state().listCounts
  }
}
