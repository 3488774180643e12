import Domain
import FileStore
import Foundation
import Persistence
import SQLiteStore
import Testing
import TestSupport

@Suite struct SQLiteOperationStoreTests {
  @Test func passesTheStoreConformanceKit() throws {
    try StoreConformance.verify(location: { $0.file("store.sqlite") }, open: { try SQLiteOperationStore(path: $0, clock: ManualClock()) })
  }

  @Test(arguments: [false, true]) func passesThePartialReadingKit(lazily: Bool) throws {
    try PartialReadingConformance.verify(
      location: { $0.file("store.sqlite") }, open: { try SQLiteOperationStore(path: $0, clock: ManualClock(), lazily: lazily) })
  }

  /// A name typed whole with accents is also asked as an id's start: the
  /// store answers from its folded names (comparing ids byte for byte, as
  /// the FileStore does), instead of leaving the caller every name to fold.
  @Test func anAccentedNameIsAnsweredFromTheFoldedNames() throws {
    let directory = TemporaryDirectory()
    let store = try SQLiteOperationStore(path: directory.file("store.sqlite"), clock: ManualClock(), lazily: true)
    defer { store.close() }
    try store.append([
      .put(.place(Fixtures.place("p1", name: "Kauppa Äitee 1"))), .put(.place(Fixtures.place("p2", name: "Kauppa Äitee 12"))),
      .put(.place(Fixtures.place("Äi-3", name: "Other"))), .put(.place(Fixtures.place("p4", name: "Kahvila"))),
    ])
    let found = try #require(try store.placeNames(startingWith: SearchText.fold("Kauppa Äitee 1"), idPrefix: "Kauppa Äitee 1"))
    #expect(Set(found.map(\.id.rawValue)) == ["p1", "p2"])
    let byID = try #require(try store.placeNames(startingWith: "zz", idPrefix: "Äi-"))
    #expect(byID.map(\.id.rawValue) == ["Äi-3"], "an id beyond ASCII found by its start")
  }

  @Test func theFileAndItsFolderAreOnlyTheOwners() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("new/store.sqlite")
    let store = try SQLiteOperationStore(path: path)
    try store.append([.put(.task(Fixtures.task("t1")))])
    store.close()
    func mode(_ path: String) throws -> Int { (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue }
    #expect(try mode(path) == 0o600)
    #expect(try mode(directory.file("new")) == 0o700)
    for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
      #expect(try mode(path + suffix) == 0o600, "\(suffix)")
    }
  }

  /// Two processes on one file, as the CLI and the daemon would be: each
  /// sees the other's acknowledged writes, and stamps keep increasing.
  @Test func twoOpenersSeeEachOthersWritesAndStampInOrder() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let first = try SQLiteOperationStore(path: path)
    let second = try SQLiteOperationStore(path: path)
    defer {
      first.close()
      second.close()
    }
    #expect(first.replica == second.replica, "one store, one replica")
    let a = try first.append([.put(.task(Fixtures.task("t1")))])
    #expect(second.state().tasks[TaskID("t1")] != nil, "a read sees the other opener's write")
    let b = try second.append([.put(.task(Fixtures.task("t2")))])
    #expect(b[0].stamp > a[0].stamp)
    let c = try first.append([.put(.place(Fixtures.place("p1")))])
    #expect(c[0].stamp > b[0].stamp)
    #expect(try first.operations(since: nil).count == 3)
    #expect(first.state().versions == second.state().versions)
  }

  @Test func syncsWithAFileStoreBothWays() throws {
    let directory = TemporaryDirectory()
    let sqlite = try SQLiteOperationStore(path: directory.file("store.sqlite"))
    let file = try FileOperationStore(directory: directory.file("files"))
    defer {
      sqlite.close()
      file.close()
    }
    try sqlite.append([.put(.task(Fixtures.task("t1"))), .put(.place(Fixtures.place("p1")))])
    try file.append([.put(.task(Fixtures.task("t2", title: "Post letters"))), .put(.list(Fixtures.list("g1")))])
    try file.merge(try sqlite.operations(since: nil))
    try sqlite.merge(try file.operations(since: nil))
    var renamed = try #require(sqlite.state().tasks[TaskID("t2")])
    renamed.title = "Post the parcel"
    try sqlite.append([.put(.task(renamed)), .delete(.task(TaskID("t1")))])
    try file.merge(try sqlite.operations(since: file.state().latest))
    #expect(sqlite.state().versions == file.state().versions)
    #expect(file.state().tasks[TaskID("t2")]?.title == "Post the parcel")
    #expect(file.state().tasks[TaskID("t1")] == nil)
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAlone() throws {
    let directory = TemporaryDirectory()
    let path = directory.write("store.sqlite", String(repeating: "not a database\n", count: 100))
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let error = #expect(throws: StoreError.self) { try SQLiteOperationStore(path: path) }
    guard case .corrupt(let where_, _, _)? = error else {
      Issue.record("expected corrupt, got \(String(describing: error))")
      return
    }
    #expect(where_ == path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func aDamagedRecordNamesItsRow() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let store = try SQLiteOperationStore(path: path)
    try store.append([.put(.task(Fixtures.task("t1")))])
    try store.append([.put(.task(Fixtures.task("t2")))])
    store.close()
    let sqlite = Process()
    sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    sqlite.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE records SET record=x'7b7b' WHERE seq=2\"); c.commit()", path]
    try sqlite.run()
    sqlite.waitUntilExit()
    let error = #expect(throws: StoreError.self) { try SQLiteOperationStore(path: path) }
    #expect(error?.description.contains("record row 2") == true, "\(String(describing: error))")
    // Opened lazily: what reads the row says so; what does not, works.
    let lazy = try SQLiteOperationStore(path: path, lazily: true)
    defer { lazy.close() }
    #expect(try lazy.state(of: [.task(TaskID("t1"))]).tasks.count == 1)
    let part = #expect(throws: StoreError.self) { try lazy.state(of: [.task(TaskID("t2"))]) }
    #expect(part?.description.contains("record row 2") == true, "\(String(describing: part))")
    let whole = #expect(throws: StoreError.self) { try lazy.refresh() }
    #expect(whole?.description.contains("record row 2") == true, "\(String(describing: whole))")
    // A write reads only the rows it changes (as the FileStore's in place):
    // one that needs the damaged row says so and writes nothing, one that does not, lands.
    let write = #expect(throws: StoreError.self) { try lazy.append([.put(.task(Fixtures.task("t2", title: "Post letters")))]) }
    #expect(write?.description.contains("record row 2") == true, "\(String(describing: write))")
    #expect(try lazy.append([.put(.task(Fixtures.task("t3")))]).count == 1)
    #expect(try lazy.state(of: [.task(TaskID("t3"))]).tasks.count == 1)
  }

  /// A store written before format 2 (JSON rows, no owner column, no task
  /// tables) is brought up to date in place when opened, losing nothing.
  @Test func aFormatOneStoreIsUpgradedWhenOpened() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.sqlite")
    var task = Fixtures.task("t1")
    task.locations = [TaskLocation(id: LocationID("l1"), target: .place(PlaceID("p1")), radius: 120)]
    var place = Fixtures.place("p1")
    place.personal.tags = ["food"]
    let records = [
      OperationRecord(stamp: Fixtures.stamp(1, replica: "old"), operation: .put(.place(place))),
      OperationRecord(stamp: Fixtures.stamp(2, replica: "old"), operation: .put(.task(task))),
      OperationRecord(stamp: Fixtures.stamp(3, replica: "old"), operation: .put(.tag(PlaceTag(place: place.id, name: "late")))),
    ]
    let rows = try records.map { "('\($0.stamp)', x'\(try JSONEncoder().encode($0).map { String(format: "%02x", $0) }.joined())')" }
    try python(
      """
      import sqlite3,sys
      c=sqlite3.connect(sys.argv[1])
      c.executescript("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE records(seq INTEGER PRIMARY KEY AUTOINCREMENT, stamp TEXT NOT NULL, record BLOB NOT NULL); INSERT INTO meta VALUES ('replica', 'old'), ('format', '1'); INSERT INTO records(stamp, record) VALUES \(rows.joined(separator: ", "));")
      c.commit()
      """, path)
    var expected = StoreState()
    expected.apply(contentsOf: records)
    let store = try SQLiteOperationStore(path: path, lazily: true)
    #expect(store.replica == Fixtures.replica("old"))
    #expect(try store.state(of: [.place(place.id)]).places[place.id] == expected.places[place.id])
    #expect(try store.tasks(near: Fixtures.helsinki) == [task.id])
    #expect(store.state().tasks == expected.tasks && store.state().places == expected.places)
    #expect(try store.placeNames().map(\.id) == [place.id])
    try store.append([.put(.task(Fixtures.task("t2")))])
    store.close()
    let reopened = try SQLiteOperationStore(path: path)
    defer { reopened.close() }
    #expect(reopened.state().tasks.count == 2 && reopened.state().places == expected.places)
    #expect(try python("import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT value FROM meta WHERE key='format'\").fetchone()[0])", path) == "2\n")
  }

  /// The names table is used only when it is current: a store written
  /// by a build that does not keep it (here, its mark removed and a name
  /// made stale behind its back) is named from its records, and the next
  /// write writes the table again.
  @Test func placeNamesBehindTheRecordsAreNotUsed() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let store = try SQLiteOperationStore(path: path)
    try store.append([.put(.place(Fixtures.place("p1", name: "Kamppi"))), .put(.place(Fixtures.place("p2", name: "Lidl")))])
    store.close()
    func table() throws -> String {
      try python("import sqlite3,sys; print(sorted(sqlite3.connect(sys.argv[1]).execute('SELECT place, name FROM place_names').fetchall()))", path)
    }
    #expect(try table() == "[('p1', 'Kamppi'), ('p2', 'Lidl')]\n")
    try python("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"DELETE FROM meta WHERE key='names_seq'\"); c.execute(\"UPDATE place_names SET name='stale'\"); c.commit()", path)
    let reopened = try SQLiteOperationStore(path: path, lazily: true)
    defer { reopened.close() }
    func names() throws -> [String] { try reopened.placeNames().map { "\($0.id)=\($0.name)" }.sorted() }
    #expect(try names() == ["p1=Kamppi", "p2=Lidl"])
    try reopened.append([.delete(.place(PlaceID("p1")))])
    #expect(try table() == "[('p2', 'Lidl')]\n")
    #expect(try names() == ["p2=Lidl"])
  }

  /// A store written before the lists' table (no mark, no rows) answers
  /// a list's places from its records; the next write fills the table.
  @Test func listPlacesBehindTheRecordsAreNotUsed() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.sqlite")
    let store = try SQLiteOperationStore(path: path)
    let list = Fixtures.list("l1")
    try store.append(
      [.put(.place(Fixtures.place("p1"))), .put(.place(Fixtures.place("p2"))), .put(.list(list)), .put(.membership(Membership(list: list.id, place: PlaceID("p1"))))])
    store.close()
    try python("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"DELETE FROM meta WHERE key='lists_seq'\"); c.execute('DELETE FROM list_places'); c.commit()", path)
    let reopened = try SQLiteOperationStore(path: path, lazily: true)
    defer { reopened.close() }
    #expect(try reopened.places(inList: list.id) == [PlaceID("p1")])
    try reopened.append([.put(.membership(Membership(list: list.id, place: PlaceID("p2"))))])
    #expect(try python("import sqlite3,sys; print(sorted(sqlite3.connect(sys.argv[1]).execute('SELECT list, place FROM list_places').fetchall()))", path) == "[('l1', 'p1'), ('l1', 'p2')]\n")
    #expect(try reopened.places(inList: list.id) == [PlaceID("p1"), PlaceID("p2")])
  }

  @Test func aFormatOneStoreThatCannotBeReadIsLeftAsItWas() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.sqlite")
    try python(
      """
      import sqlite3,sys
      c=sqlite3.connect(sys.argv[1])
      c.executescript("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE records(seq INTEGER PRIMARY KEY AUTOINCREMENT, stamp TEXT NOT NULL, record BLOB NOT NULL); INSERT INTO meta VALUES ('replica', 'old'), ('format', '1'); INSERT INTO records(stamp, record) VALUES ('x', x'7b7b');")
      c.commit()
      """, path)
    let error = #expect(throws: StoreError.self) { try SQLiteOperationStore(path: path, lazily: true) }
    #expect(error?.description.contains("record row 1") == true, "\(String(describing: error))")
    #expect(try python("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(\"SELECT value FROM meta WHERE key='format'\").fetchone()[0], [r[1] for r in c.execute('PRAGMA table_info(records)')])", path) == "1 ['seq', 'stamp', 'record']\n")
  }

  /// Runs a Python program on the database at `path`; its output.
  @discardableResult
  func python(_ program: String, _ path: String) throws -> String {
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", program, path]
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "python3 failed")
    return text
  }
}

/// The SIGKILL crash test on SQLite: every acknowledged write survives.
@Suite(.serialized) struct SQLiteCrashTests {
  /// `lazy`: opened as the CLI opens it, every write made in place.
  @Test(arguments: [false, true]) func acknowledgedWritesSurviveSIGKILL(lazy: Bool) throws {
    let outcome = try StoreCrashTest.run(
      helper: BuiltProduct.path("store-torture"), target: { (lazy ? "sqlite-lazy:" : "sqlite:") + $0.file("store.sqlite") },
      open: { try SQLiteOperationStore(path: $0.file("store.sqlite")) }, enough: { $0.provesEnough(inPlace: lazy) })
    #expect(outcome.losses.isEmpty, "\(outcome.losses)")
    #expect(outcome.unexpectedExits.isEmpty, "the writer died on its own: iterations \(outcome.unexpectedExits)")
    #expect(outcome.provesEnough(inPlace: lazy), "too little proved: \(outcome.evidence)")
  }
}
