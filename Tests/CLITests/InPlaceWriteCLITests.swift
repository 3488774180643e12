import Domain
import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

/// Everyday writes on a large `file:` store read the task or place they
/// change, not every place: shown by damage in a snapshot frame none of them
/// reads, which stops anything that reads the store whole.
@Suite struct InPlaceWriteCLITests {
  /// A task named by its title (or the start of it) and a new task's
  /// twin are found among the sidecar's titles: damage in a snapshot frame
  /// holding other tasks stops what reads every task, not them.
  @Test func tasksNamedByTitleAreFoundWithoutReadingEveryTask() throws {
    let cli = CLIHarness()
    let directory = cli.storeDirectory
    try Self.compacted(directory) { store in
      try store.append([.put(.place(Fixtures.place("p1", name: "Alepa Kamppi")))])
      var wanted = Fixtures.task("t1", title: "Buy oat milk")
      wanted.locations = [TaskLocation(id: LocationID("l1"), target: .place(PlaceID("p1")), radius: 150)]
      try store.append([.put(.task(wanted))])
      // More records than two snapshot frames hold (8,192 each).
      try store.append((2..<16_500).map { .put(.task(Fixtures.task("t\($0)", title: "Errand \($0)"))) })
    }
    try Self.damageAFrame(of: directory, holdingNone: ["Buy oat milk", "Alepa Kamppi"])
    #expect(cli.run("task", "list", "--json").code != 0, "reading every task finds the damage")
    // The text listing reads the sidecar's listings, not the damaged frame.
    let listed = cli.run("task", "list")
    #expect(listed.code == 0 && listed.stdout.contains("Buy oat milk") && listed.stdout.contains("Alepa Kamppi"), "\(listed.stdout)\(listed.stderr)")

    let shown = cli.run("task", "show", "Buy oat milk")
    #expect(shown.code == 0 && shown.stdout.contains("Alepa Kamppi"), "\(shown.stdout)\(shown.stderr)")
    let done = cli.run("task", "done", "buy oat")
    #expect(done.code == 0 && done.stdout.contains("Done"), "\(done.stdout)\(done.stderr)")
    #expect(cli.run("task", "reopen", "Buy oat milk").code == 0)
    let twin = cli.run("task", "add", "BUY OAT MILK", "--at", "60.17,24.94")
    #expect(twin.code == 0 && twin.stderr.contains("was already on your list"), "\(twin.stdout)\(twin.stderr)")
    let ambiguous = cli.run("task", "show", "buy oat")
    #expect(ambiguous.code != 0 && ambiguous.stderr.contains("several"), "two open tasks now: \(ambiguous.stdout)\(ambiguous.stderr)")
  }

  @Test func tasksAreAnsweredWithoutReadingEveryPlace() throws {
    let cli = CLIHarness()
    let directory = cli.storeDirectory
    try Self.compacted(directory) { store in
      // More records than two snapshot frames hold (8,192 each): one frame holds neither the task nor its place.
      try store.append((0..<16_500).map { .put(.place(Fixtures.place("p\($0)", name: $0 == 7 ? "Alepa Kamppi" : "Shop \($0)"))) })
      var task = Fixtures.task("t1", title: "Buy oat milk")
      task.locations = [TaskLocation(id: LocationID("l1"), target: .place(PlaceID("p7")), radius: 150)]
      try store.append([.put(.task(task))])
    }
    try Self.damageAFrame(of: directory, holdingNone: ["Buy oat milk", "Alepa Kamppi"])
    #expect(cli.run("place", "list").code != 0, "reading every place finds the damage")

    let later = cli.run("task", "later", "t1", "--for", "2h")
    #expect(later.code == 0 && later.stdout.contains("Snoozed for 2h") && later.stdout.contains("Alepa Kamppi"), "\(later.stdout)\(later.stderr)")
    #expect(cli.run("task", "wake", "t1").code == 0)
    let done = cli.run("task", "done", "t1")
    #expect(done.code == 0 && done.stdout.contains("Done"), "\(done.stdout)\(done.stderr)")
    let shown = cli.run("task", "show", "t1", "--json")
    #expect(shown.stdout.contains("\"completed\"") || shown.stdout.contains("\"done\""), "the writes landed: \(shown.stdout)\(shown.stderr)")
    #expect(cli.run("undo", "--list").stdout.contains("Buy oat milk"))
    let undone = cli.run("undo")
    #expect(undone.code == 0 && undone.stdout.contains("Undone"), "\(undone.stdout)\(undone.stderr)")
    #expect(cli.run("task", "show", "t1").stdout.contains("active"), "Done was put back")
    let tagged = cli.run("place", "tag", "p7", "groceries", "late")
    #expect(tagged.code == 0 && tagged.stdout.contains("groceries"), "\(tagged.stdout)\(tagged.stderr)")
    #expect(cli.run("place", "untag", "p7", "late").code == 0)
    #expect(cli.run("place", "show", "p7").stdout.contains("groceries"))
    // Adding tasks and places and editing a place, by name: the names are read, not every place.
    let added = cli.run("task", "add", "Post letters", "--at", "Alepa Kamppi")
    #expect(added.code == 0 && added.stdout.contains("Added") && added.stdout.contains("Alepa Kamppi"), "\(added.stdout)\(added.stderr)")
    let twin = cli.run("task", "add", "post letters", "--at", "60.17,24.94")
    #expect(twin.code == 0 && twin.stderr.contains("was already on your list"), "\(twin.stdout)\(twin.stderr)")
    #expect(cli.run("task", "add-place", "Buy oat milk", "--at", "Shop 12").code == 0)
    let edited = cli.run("place", "edit", "Alepa Kamppi", "--note", "by the station")
    #expect(edited.code == 0 && edited.stdout.contains("by the station"), "\(edited.stdout)\(edited.stderr)")
    let saved = cli.run("place", "add", "Kiosk", "--at", "60.17,24.95")
    #expect(saved.code == 0 && saved.stdout.contains("Kiosk"), "\(saved.stdout)\(saved.stderr)")
    #expect(cli.run("task", "show", "Buy oat milk").stdout.contains("Shop 12"))
    // Lists: made among the lists, filled and emptied through the place's own records.
    let created = cli.run("list", "create", "Groceries")
    #expect(created.code == 0 && created.stdout.contains("Created list 'Groceries'"), "\(created.stdout)\(created.stderr)")
    #expect(cli.run("list", "create", "groceries").stderr.contains("already exists"))
    let filled = cli.run("list", "add", "Groceries", "Alepa Kamppi")
    #expect(filled.code == 0 && filled.stdout.contains("Added 'Alepa Kamppi' to 'Groceries'"), "\(filled.stdout)\(filled.stderr)")
    #expect(cli.run("list", "add", "Groceries", "p7").stderr.contains("already in list"))
    #expect(cli.run("place", "show", "p7").stdout.contains("Groceries"))
    let emptied = cli.run("list", "remove", "Groceries", "p7")
    #expect(emptied.code == 0 && emptied.stdout.contains("Removed 'Alepa Kamppi' from 'Groceries'"), "\(emptied.stdout)\(emptied.stderr)")
    #expect(cli.run("list", "remove", "Groceries", "p7").code != 0, "no longer in it")
    #expect(!cli.run("place", "show", "p7").stdout.contains("Groceries"))
    // Shown and deleted through the list's own places: one a task uses (kept), one only the list held (removed).
    #expect(cli.run("list", "add", "Groceries", "Shop 12").code == 0 && cli.run("list", "add", "Groceries", "Shop 13").code == 0)
    let listed = cli.run("list", "show", "Groceries")
    #expect(listed.code == 0 && listed.stdout.contains("(2 places)") && listed.stdout.contains("Shop 13"), "\(listed.stdout)\(listed.stderr)")
    let counted = cli.run("list", "all")
    #expect(counted.code == 0 && counted.stdout.contains("Groceries") && counted.stdout.contains("2 places"), "\(counted.stdout)\(counted.stderr)")
    let deleted = cli.run("list", "delete", "Groceries")
    #expect(
      deleted.code == 0 && deleted.stdout.contains("1 place kept") && deleted.stdout.contains("1 removed with it") && deleted.stdout.contains("- Shop 13"),
      "\(deleted.stdout)\(deleted.stderr)")
    #expect(cli.run("list", "show", "Groceries").code != 0, "the list is gone")
    #expect(cli.run("place", "show", "Shop 12").code == 0 && cli.run("place", "show", "p13").code != 0)
    #expect(cli.run("undo").code == 0)
    #expect(cli.run("list", "show", "Groceries").stdout.contains("(2 places)"), "undo put the list and its places back")
    #expect(cli.run("doctor").code != 0, "the damage is still reported")
  }

  /// A place deleted by its name, a point named by a saved place and
  /// suggestions around the saved places read those places (and the tasks
  /// near a place deleted), not every place.
  @Test func placesAreDeletedAndNamedAsPointsWithoutReadingEveryPlace() throws {
    let cli = CLIHarness()
    let directory = cli.storeDirectory
    try Self.compacted(directory) { store in
      func place(_ id: String, _ name: String, _ latitude: Double, _ longitude: Double) throws -> StoreOperation {
        .put(.place(Place(id: PlaceID(id), personal: PersonalPlaceData(name: name, coordinate: try Coordinate(latitude: latitude, longitude: longitude)), createdAt: Fixtures.epoch)))
      }
      var open = Fixtures.task("t1", title: "Buy oat milk")
      open.locations = [TaskLocation(id: LocationID("l1"), target: .place(PlaceID("p7")), radius: 150)]
      var done = Fixtures.task("t2", title: "Old errand")
      done.locations = [TaskLocation(id: LocationID("l1"), target: .place(PlaceID("p8")), radius: 100)]
      done.state = .completed(at: Fixtures.epoch)
      // First: the snapshot keeps stamp order, so the last frame holds only places no command here reads.
      try store.append([.put(.task(open)), .put(.task(done))])
      // More records than two snapshot frames hold (8,192 each); the two named places sort first by name.
      try store.append(try (0..<16_500).map { n in
        switch n {
        case 7: try place("p7", "Alepa Kamppi", 60.1690, 24.9330)
        case 8: try place("p8", "Lidl Ruoholahti", 60.1630, 24.9140)
        default: .put(.place(Fixtures.place("p\(n)", name: "Zone \(n)")))
        }
      })
    }
    // The first 50 names with a position (Alepa, Lidl, then "Zone 0", "Zone 1", "Zone 10", …, "Zone 10045") and Zone 5.
    try Self.damageAFrame(of: directory, holdingNone: ["Buy oat milk", "Old errand", "Alepa Kamppi", "Lidl Ruoholahti", "Zone 0", "Zone 5", "Zone 10000", "Zone 10045"])
    #expect(cli.run("place", "list").code != 0, "reading every place finds the damage")

    let checked = cli.run("check", "--at", "Alepa Kamppi")
    #expect(checked.code == 0 && checked.stdout.contains("Buy oat milk"), "\(checked.stdout)\(checked.stderr)")
    let used = cli.run("place", "delete", "Alepa Kamppi")
    #expect(used.code != 0 && used.stderr.contains("is used by task(s) 'Buy oat milk'"), "\(used.stdout)\(used.stderr)")
    let usedWhenDone = cli.run("place", "delete", "p8")
    #expect(usedWhenDone.code != 0 && usedWhenDone.stderr.contains("'Old errand'"), "a done task keeps its place too: \(usedWhenDone.stdout)\(usedWhenDone.stderr)")
    let deleted = cli.run("place", "delete", "Zone 5")
    #expect(deleted.code == 0 && deleted.stdout.contains("Deleted place 'Zone 5' (p5)"), "\(deleted.stdout)\(deleted.stderr)")
    #expect(cli.run("place", "show", "p5").code != 0, "the place is gone")
    #expect(cli.run("place", "delete", "p5").code != 0, "and cannot be deleted twice")
    #expect(cli.run("undo").code == 0 && cli.run("place", "show", "Zone 5").code == 0, "undo put it back")

    let along = cli.run("suggest", "cafe", "--json")
    #expect(along.code == 0 && along.stdout.contains("near your"), "\(along.stdout)\(along.stderr)")
    let searched = cli.run("place", "search", "Kamppi", "--near", "Alepa Kamppi")
    #expect(searched.code == 0 && !searched.stdout.isEmpty, "\(searched.stdout)\(searched.stderr)")
    #expect(cli.run("doctor").code != 0, "the damage is still reported")
  }

  /// A store filled by `sync` (a new machine joining) is folded into a
  /// snapshot with its sidecar at the end of the merge: its commands read
  /// a few records, not a log of everything that arrived.
  @Test func aStoreFilledBySyncIsReadInParts() throws {
    let cli = CLIHarness()
    let folder = TemporaryDirectory()
    let source = folder.path + "/phone"
    do {
      let store = try FileOperationStore(directory: source, clock: ManualClock(Date()), options: FileStoreOptions(access: .shared))
      defer { store.close() }
      try store.append((0..<3000).map { .put(.place(Fixtures.place("p\($0)", name: "Place \($0)"))) })
    }
    let via = "folder:" + folder.path + "/sync"
    #expect(cli.run("--store", "file:" + source, "sync", "--via", via).code == 0)
    let joined = cli.run("sync", "--via", via)
    #expect(joined.code == 0 && joined.stdout.contains("applied 3000"), "\(joined.stdout)\(joined.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: cli.storeDirectory)
    #expect(files.contains { $0.hasPrefix("keys-") }, "a sidecar to read parts by: \(files)")
    let log = try #require(files.first { $0.hasPrefix("log-") })
    let logSize = try #require(try FileManager.default.attributesOfItem(atPath: cli.storeDirectory + "/" + log)[.size] as? Int)
    #expect(logSize <= 64 << 10, "\(logSize) bytes of log left to read at every command")
    let shown = cli.run("place", "show", "Place 2999")
    #expect(shown.code == 0 && shown.stdout.contains("p2999"), "\(shown.stdout)\(shown.stderr)")
  }

  /// A shared `file:` store at `directory`, written by `fill` and compacted
  /// (a snapshot with its sidecar), as the CLI then finds it.
  static func compacted(_ directory: String, _ fill: (FileOperationStore) throws -> Void) throws {
    let store = try FileOperationStore(directory: directory, clock: ManualClock(Date()), options: FileStoreOptions(access: .shared))
    defer { store.close() }
    try fill(store)
    try store.compact()
  }

  /// Flips a byte in the middle of a frame of the store's snapshot that
  /// holds none of `texts`: what reads every record finds the damage, what
  /// reads only the records holding them does not.
  static func damageAFrame(of directory: String, holdingNone texts: [String]) throws {
    let snapshotPath = directory + "/snapshot-2"
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: snapshotPath)))
    let read = try texts.map { text in
      let wanted = Array(text.utf8)
      return try #require((0...(bytes.count - wanted.count)).first { Array(bytes[$0..<($0 + wanted.count)]) == wanted })
    }
    // The frames ("WHR1", payload length u32 LE, CRC-32, payload) after the 8-byte file header.
    var frames: [Range<Int>] = []
    var start = 8
    while start + 12 <= bytes.count {
      let length = (0..<4).reduce(0) { $0 | Int(bytes[start + 4 + $1]) << (8 * $1) }
      frames.append(start..<(start + 12 + length))
      start += 12 + length
    }
    #expect(frames.count >= 3 && start == bytes.count, "\(frames)")
    let other = try #require(frames.first { frame in !read.contains { frame.contains($0) } })
    bytes[(other.lowerBound + other.upperBound) / 2] ^= 0xFF
    try Data(bytes).write(to: URL(fileURLWithPath: snapshotPath))
  }
}
