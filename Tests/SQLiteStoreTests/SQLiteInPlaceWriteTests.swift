import Domain
import Foundation
import Persistence
@testable import SQLiteStore
import Testing
import TestSupport

/// Writes through a lazily opened `sqlite:` store, as the CLI makes it:
/// only the rows a write changes are read, stamps stay newer than every
/// stamp held, and the task and place-name tables stay right.
@Suite struct SQLiteInPlaceWriteTests {
  static let home = try! Coordinate(latitude: 60.17, longitude: 24.94)
  static let across = try! Coordinate(latitude: 60.20, longitude: 24.90)

  static func place(_ id: String, name: String, at coordinate: Coordinate = home) -> Place {
    Place(id: PlaceID(id), personal: PersonalPlaceData(name: name, coordinate: coordinate), createdAt: Fixtures.epoch)
  }

  static func task(_ id: String, at place: String) -> ReminderTask {
    try! ReminderTask(
      id: TaskID(id), title: "Buy milk", locations: [TaskLocation(id: LocationID("l1"), target: .place(PlaceID(place)), radius: 80)],
      createdAt: Fixtures.epoch)
  }

  /// A store of 30 places, a task at p3 and a record merged from a phone
  /// whose clock runs a day ahead, written whole; its path and that stamp.
  static func store() throws -> (TemporaryDirectory, String, HLCTimestamp) {
    let folder = TemporaryDirectory()
    let path = folder.file("store.sqlite")
    let store = try SQLiteOperationStore(path: path, clock: ManualClock())
    defer { store.close() }
    try store.append((0..<30).map { .put(.place(Self.place("p\($0)", name: "Place \($0)"))) } + [.put(.task(Self.task("t1", at: "p3")))])
    let phone = InMemoryOperationStore(replica: Fixtures.replica("phone"), clock: ManualClock(ManualClock().now().addingTimeInterval(86_400)))
    try phone.append([.put(.setting(key: "phone", value: "ahead"))])
    let ahead = try #require(try store.merge(try phone.operations(since: nil)).first?.stamp)
    return (folder, path, ahead)
  }

  static func whole(_ path: String) throws -> StoreState {
    let store = try SQLiteOperationStore(path: path, clock: ManualClock())
    defer { store.close() }
    return store.state()
  }

  @Test func passesTheStoreConformanceKitWritingInPlace() throws {
    try StoreConformance.verify(location: { $0.file("store.sqlite") }, open: { try SQLiteOperationStore(path: $0, clock: ManualClock(), lazily: true) })
  }

  /// A task written, then its place moved and renamed, by lazy handles:
  /// none reads the whole state, every stamp is newer than the one from a
  /// day ahead, the task's circle follows its place and the new name is
  /// found, and a whole read agrees.
  @Test func aWriteReadsOnlyWhatItChanges() throws {
    let (folder, path, ahead) = try Self.store()
    let lazy = try SQLiteOperationStore(path: path, clock: ManualClock(), lazily: true)
    var task = Self.task("t1", at: "p3")
    task.title = "Buy oat milk"
    let written = try lazy.append([.put(.task(task))])
    #expect(written.count == 1 && written[0].fields != nil, "an update of the title, stamped against the task held")
    #expect(written.allSatisfy { $0.stamp > ahead }, "\(written.map(\.stamp)) after \(ahead)")
    #expect(try lazy.tasks(near: Self.home) == [TaskID("t1")], "the task's circle is still where its place is")
    let moved = try lazy.append([.put(.place(Self.place("p3", name: "Alepa Kallio", at: Self.across)))])
    #expect(moved.allSatisfy { $0.stamp > written.last!.stamp })
    #expect(try lazy.tasks(near: Self.across) == [TaskID("t1")], "the circle moved with its place")
    #expect(try lazy.tasks(near: Self.home).isEmpty)
    #expect(try lazy.placeNames().contains { $0.id == PlaceID("p3") && $0.name == "Alepa Kallio" })
    #expect(!lazy.isReadWhole, "every read and write above read rows, not the state")
    #expect(try lazy.append([.put(.task(task))]).isEmpty, "a put of the task as held writes nothing")
    lazy.close()
    let state = try Self.whole(path)
    #expect(state.tasks[TaskID("t1")]?.title == "Buy oat milk")
    #expect(state.places[PlaceID("p3")]?.name == "Alepa Kallio" && state.places[PlaceID("p4")]?.name == "Place 4")
    let reopened = try SQLiteOperationStore(path: path, clock: ManualClock())
    defer { reopened.close() }
    #expect(try reopened.operations(since: ahead).count == written.count + moved.count)
    withExtendedLifetime(folder) {}
  }

  /// A new task tied to a saved place, written in place: its circle is
  /// around the place (`check --at` finds it) and its listing names the
  /// place, as a whole read would make them. The place's rows were not
  /// read, so the task had no box and was listed as "(place deleted)".
  @Test func aNewTaskAtASavedPlaceGetsItsCircleAndName() throws {
    let (folder, path, _) = try Self.store()
    let lazy = try SQLiteOperationStore(path: path, clock: ManualClock(), lazily: true)
    defer { lazy.close() }
    try lazy.append([.put(.task(Self.task("t2", at: "p7")))])
    #expect(!lazy.isReadWhole)
    #expect(try lazy.tasks(near: Self.home).contains(TaskID("t2")), "the new task's circle is at its place")
    let listing = try lazy.taskListings().listings().first { $0.id == TaskID("t2") }
    #expect(listing?.locations.first?.placeName == "Place 7" && listing?.locations.first?.center == Self.home, "\(String(describing: listing))")
    let whole = try Self.whole(path)
    #expect(listing == whole.listing(of: TaskID("t2")))
    withExtendedLifetime(folder) {}
  }

  /// A store an older build wrote in place, leaving a task's circle out,
  /// is healed by the next write: it goes through the whole state (the
  /// store has no `spots2`), which rebuilds every circle.
  @Test func circlesAnOlderBuildLeftOutAreRebuilt() throws {
    let (folder, path, _) = try Self.store()
    do {
      let database = try SQLiteDatabase(path: path, create: false)
      defer { database.close() }
      try database.execute("DELETE FROM task_boxes")
    }
    try Self.setMeta(path, "spots2", nil)
    let lazy = try SQLiteOperationStore(path: path, clock: ManualClock(), lazily: true)
    defer { lazy.close() }
    #expect(try lazy.tasks(near: Self.home).isEmpty, "the circle is missing, as an older build left it")
    try lazy.append([.put(.setting(key: "any", value: "write"))])
    #expect(lazy.isReadWhole)
    #expect(try lazy.tasks(near: Self.home) == [TaskID("t1")], "the circle is back")
    withExtendedLifetime(folder) {}
  }

  /// Rows an older build wrote after the recorded newest stamp are read for
  /// theirs: a stamp ahead among them is passed too.
  @Test func rowsAfterTheRecordedStampArePassedToo() throws {
    let (folder, path, ahead) = try Self.store()
    // As if the merge had been written by a build that records no newest stamp.
    let stale = try SQLiteOperationStore(path: path, clock: ManualClock())
    let first = try #require(try stale.operations(since: nil).min { $0.stamp < $1.stamp })
    stale.close()
    try Self.setMeta(path, "latest", "1 \(first.stamp)")
    let lazy = try SQLiteOperationStore(path: path, clock: ManualClock(), lazily: true)
    defer { lazy.close() }
    let written = try lazy.append([.put(.setting(key: "y", value: "2"))])
    #expect(!lazy.isReadWhole && written.first.map { $0.stamp > ahead } == true)
    withExtendedLifetime(folder) {}
  }

  /// A store that cannot say its newest stamp, or whose place names lag,
  /// is written through the whole state, which records what the next
  /// write needs: that one writes in place.
  @Test(arguments: ["latest", "names_seq", "folded1_seq", "lists_seq", "titles_seq", "listings1_seq", "spots2"]) func whatCannotBeWrittenInPlaceIsWrittenWhole(missing: String) throws {
    let (folder, path, ahead) = try Self.store()
    try Self.setMeta(path, missing, nil)
    let lazy = try SQLiteOperationStore(path: path, clock: ManualClock(), lazily: true)
    let written = try lazy.append([.put(.place(Self.place("p5", name: "Lidl")))])
    #expect(lazy.isReadWhole && written.first.map { $0.stamp > ahead } == true)
    #expect(try lazy.placeNames().contains { $0.name == "Lidl" })
    lazy.close()
    let next = try SQLiteOperationStore(path: path, clock: ManualClock(), lazily: true)
    defer { next.close() }
    let more = try next.append([.put(.place(Self.place("p6", name: "Prisma")))])
    #expect(!next.isReadWhole && more.first.map { $0.stamp > written.last!.stamp } == true)
    #expect(try next.placeNames().contains { $0.name == "Prisma" })
    withExtendedLifetime(folder) {}
  }

  /// A write that changes nothing, through the whole state, leaves the
  /// marks as they were: the names and the newest stamp are still read
  /// without the whole state (it had set both to row 0).
  @Test func aWriteOfNothingLeavesTheMarksAlone() throws {
    let (folder, path, ahead) = try Self.store()
    let whole = try SQLiteOperationStore(path: path, clock: ManualClock())
    #expect(try whole.append([.put(.place(Self.place("p4", name: "Place 4")))]).isEmpty)
    whole.close()
    let lazy = try SQLiteOperationStore(path: path, clock: ManualClock(), lazily: true)
    defer { lazy.close() }
    #expect(try lazy.placeNames().count == 30)
    let written = try lazy.append([.put(.place(Self.place("p5", name: "Lidl")))])
    #expect(!lazy.isReadWhole && written.first.map { $0.stamp > ahead } == true)
    withExtendedLifetime(folder) {}
  }

  /// Two lazy handles on one file, as two CLI commands at once: each
  /// writes in place after the other's newest stamp and reads the other's
  /// writes, and a whole read holds both in stamp order.
  @Test func twoWritersInPlaceStampInOrder() throws {
    let (folder, path, ahead) = try Self.store()
    let first = try SQLiteOperationStore(path: path, clock: ManualClock(), lazily: true)
    let second = try SQLiteOperationStore(path: path, clock: ManualClock(), lazily: true)
    defer {
      first.close()
      second.close()
    }
    var stamps: [HLCTimestamp] = [ahead]
    for n in 0..<6 {
      let writer = n.isMultiple(of: 2) ? first : second
      let written = try writer.append([.put(.place(Self.place("p\(n)", name: "Renamed \(n)")))])
      #expect(written.count == 1)
      stamps += written.map(\.stamp)
      let other = n.isMultiple(of: 2) ? second : first
      #expect(try other.state(of: [.place(PlaceID("p\(n)"))]).places[PlaceID("p\(n)")]?.name == "Renamed \(n)")
    }
    #expect(stamps == stamps.sorted() && Set(stamps).count == stamps.count, "\(stamps)")
    #expect(!first.isReadWhole && !second.isReadWhole)
    let state = try Self.whole(path)
    #expect((0..<6).allSatisfy { state.places[PlaceID("p\($0)")]?.name == "Renamed \($0)" })
    withExtendedLifetime(folder) {}
  }

  /// Sets (or, with nil, deletes) one row of the store's `meta` table, as
  /// another build would have left it.
  static func setMeta(_ path: String, _ key: String, _ value: String?) throws {
    let database = try SQLiteDatabase(path: path, create: false)
    defer { database.close() }
    if let value {
      try database.query("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", [key, value])
    } else {
      try database.query("DELETE FROM meta WHERE key = ?", [key])
    }
  }
}
