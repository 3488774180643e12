import Domain
import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

/// The `file:` store as the CLI opens it: part reads through the
/// snapshot's sidecar and the log after it, the whole store only when
/// something needs all of it.
@Suite struct LazyFileStoreTests {
  static func lazy(_ directory: String, access: FileStoreOptions.Access = .shared) -> LazyFileStore {
    LazyFileStore(directory: directory) {
      try FileOperationStore(directory: directory, clock: ManualClock(), options: FileStoreOptions(access: access))
    }
  }

  @Test func passesTheStoreConformanceKit() throws {
    try StoreConformance.verify(location: { $0.path + "/store" }, open: { Self.lazy($0, access: .exclusive) })
  }

  @Test func passesThePartialReadingKit() throws {
    try PartialReadingConformance.verify(location: { $0.path + "/store" }, open: { Self.lazy($0) })
  }

  /// A part read of a compacted store reads its sidecar and never opens
  /// the store whole: it works while another process holds the writer
  /// lock, and sees what that process writes next.
  @Test func aPartReadOpensNothingWholeAndSeesLaterWrites() throws {
    let folder = TemporaryDirectory()
    let path = folder.path + "/store"
    let writer = try FileOperationStore(directory: path, clock: ManualClock())
    defer { writer.close() }
    try writer.append((0..<50).map { .put(.place(Fixtures.place("p\($0)", name: "Place \($0)"))) } + [.put(.task(Fixtures.task("t1")))])
    try writer.compact()
    #expect(FileManager.default.fileExists(atPath: path + "/keys-2"), "the compaction wrote the sidecar")
    let reader = Self.lazy(path)
    defer { reader.close() }
    #expect(try reader.state(of: [.place(PlaceID("p7"))]).places[PlaceID("p7")]?.name == "Place 7")
    #expect(try reader.tasks(near: Fixtures.helsinki) == [TaskID("t1")])
    try writer.append([.put(.task(Fixtures.task("t2", title: "Post letters")))])
    #expect(try reader.taskKeys() == [.task(TaskID("t1")), .task(TaskID("t2"))], "the log after the snapshot is read again once it grew")
    #expect(try reader.state(of: [.task(TaskID("t2"))]).tasks[TaskID("t2")]?.title == "Post letters")
  }

  /// A store in a new folder holding `operations`, compacted; its path.
  static func compacted(_ operations: [StoreOperation]) throws -> (TemporaryDirectory, String) {
    let folder = TemporaryDirectory()
    let path = folder.path + "/store"
    let writer = try FileOperationStore(directory: path, clock: ManualClock())
    defer { writer.close() }
    try writer.append(operations)
    try writer.compact()
    return (folder, path)
  }

  /// That store with one byte of `file` flipped at the offset `at` picks from its length; read lazily.
  static func damaged(_ operations: [StoreOperation], flipping file: String, at: (Int) -> Int) throws -> (TemporaryDirectory, LazyFileStore) {
    let (folder, path) = try compacted(operations)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: path + "/" + file))
    bytes[at(bytes.count)] ^= 0xFF
    try bytes.write(to: URL(fileURLWithPath: path + "/" + file))
    return (folder, Self.lazy(path))
  }

  /// A sidecar that is damaged, or made for other snapshot bytes, is not
  /// used: the store is read whole and answers the same.
  @Test func aDamagedSidecarIsNotUsed() throws {
    let (folder, reader) = try Self.damaged(
      [.put(.place(Fixtures.place("p1", name: "Alepa"))), .put(.task(Fixtures.task("t1")))], flipping: "keys-2", at: { $0 / 2 })
    defer { reader.close() }
    #expect(try reader.state(of: [.place(PlaceID("p1"))]).places[PlaceID("p1")]?.name == "Alepa")
    #expect(try reader.tasks(near: Fixtures.helsinki) == [TaskID("t1")])
    withExtendedLifetime(folder) {}
  }

  /// A sidecar whose checksum holds but whose offsets point outside its
  /// text (made by hand, or by a fault the checksum missed) is not used:
  /// no read goes out of bounds, and the store is read whole.
  @Test func aSidecarPointingOutsideItselfIsNotUsed() throws {
    let (folder, path) = try Self.compacted([.put(.place(Fixtures.place("p1", name: "Alepa"))), .put(.task(Fixtures.task("t1")))])
    var keys = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/keys-2")))
    // The first entry's owner starts far past the text; then the checksum made right again.
    let firstEntry = 36 + 8
    for i in 0..<4 { keys[firstEntry + i] = 0xFF }
    let crc = CRC32.checksum(Array(keys[0..<(keys.count - 4)]))
    for i in 0..<4 { keys[keys.count - 4 + i] = UInt8((crc >> (8 * UInt32(i))) & 0xFF) }
    try Data(keys).write(to: URL(fileURLWithPath: path + "/keys-2"))
    let again = Self.lazy(path)
    defer { again.close() }
    #expect(try again.state(of: [.place(PlaceID("p1"))]).places[PlaceID("p1")]?.name == "Alepa")
    #expect(try again.taskKeys() == [.task(TaskID("t1"))])
    withExtendedLifetime(folder) {}
  }

  /// The sidecar `path` holds, changed by `change` and its checksum made right again.
  static func rewriteSidecar(_ path: String, _ change: (inout [UInt8]) -> Void) throws {
    var keys = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/keys-2")))
    keys.removeLast(4)
    change(&keys)
    let crc = CRC32.checksum(keys)
    keys += (0..<4).map { UInt8((crc >> (8 * UInt32($0))) & 0xFF) }
    try Data(keys).write(to: URL(fileURLWithPath: path + "/keys-2"))
  }

  /// Takes the listings off the end of a sidecar (checksum taken off
  /// already), leaving one as written before it held them; their count.
  static func removeListings(_ keys: inout [UInt8]) -> Int { removeSection(&keys, mark: 0x544C_4857, entryBytes: 8, "listings") }

  /// Takes the titles off the end of a sidecar (checksum and listings
  /// taken off already), leaving one as written before it held them; their count.
  static func removeTitles(_ keys: inout [UInt8]) -> Int { removeSection(&keys, mark: 0x5454_4857, entryBytes: 20, "titles") }

  /// Takes the memberships off the end of a sidecar (checksum, listings
  /// and titles taken off already), leaving one as written before it held them; their count.
  static func removeMemberships(_ keys: inout [UInt8]) -> Int { removeSection(&keys, mark: 0x534D_4857, entryBytes: 16, "memberships") }

  /// Takes the section ending with its count and `mark` off the end of a sidecar; its count.
  static func removeSection(_ keys: inout [UInt8], mark: Int, entryBytes: Int, _ name: String) -> Int {
    func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(keys[at + $1]) << (8 * $1) } }
    #expect(word(keys.count - 4) == mark, "the sidecar ends with its \(name)' mark")
    let count = word(keys.count - 8)
    keys.removeLast(8 + entryBytes * count)
    return count
  }

  /// A sidecar written before it held the lists' memberships (it ends with
  /// the names) is still used for part reads and names; a list's places
  /// are read from the whole store.
  @Test func aSidecarFromBeforeMembershipsIsUsed() throws {
    let places = (0..<4).map { Fixtures.place("p\($0)", name: "Place \($0)") }
    let list = Fixtures.list("l1")
    let (folder, path) = try Self.compacted(
      places.map { .put(.place($0)) } + [.put(.list(list))] + [1, 3].map { .put(.membership(Membership(list: list.id, place: places[$0].id))) })
    try Self.rewriteSidecar(path) { keys in
      _ = Self.removeListings(&keys)
      _ = Self.removeTitles(&keys)
      #expect(Self.removeMemberships(&keys) == 2)
    }
    let reader = Self.lazy(path)
    defer { reader.close() }
    #expect(try reader.placeNames().count == 4)
    #expect(try reader.places(inList: list.id) == [places[1].id, places[3].id])
    withExtendedLifetime(folder) {}
  }

  /// A membership pointing past the sidecar's text is not read: the
  /// sidecar is not used, and a list's places come from the records.
  @Test func aSidecarMembershipPointingOutsideItselfIsNotUsed() throws {
    let list = Fixtures.list("l1")
    let (folder, path) = try Self.compacted([.put(.place(Fixtures.place("p1"))), .put(.list(list)), .put(.membership(Membership(list: list.id, place: PlaceID("p1"))))])
    try Self.rewriteSidecar(path) { keys in
      // The one membership's place id starts far past the end (after it:
      // its count and mark, then the titles' count and mark, there being none).
      _ = Self.removeListings(&keys)
      for i in 0..<4 { keys[keys.count - 8 - 8 - 16 + 8 + i] = 0xFF }
    }
    let reader = Self.lazy(path)
    defer { reader.close() }
    #expect(try reader.places(inList: list.id) == [PlaceID("p1")])
    withExtendedLifetime(folder) {}
  }

  /// A sidecar written before it held the places' names (it ends with its
  /// text) is still used for part reads; names are read from the records.
  @Test func aSidecarFromBeforeNamesIsUsed() throws {
    let places = (0..<5).map { Fixtures.place("p\($0)", name: "Place \($0)") }
    let (folder, path) = try Self.compacted(places.map { .put(.place($0)) } + [.put(.task(Fixtures.task("t1")))])
    try Self.rewriteSidecar(path) { keys in
      _ = Self.removeListings(&keys)
      _ = Self.removeTitles(&keys)
      _ = Self.removeMemberships(&keys)
      let count = keys.suffix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
      #expect(count == 5, "the sidecar names the five places")
      keys.removeLast(4 + 16 * count)
    }
    let reader = Self.lazy(path)
    defer { reader.close() }
    #expect(try reader.placeNames().map { "\($0.id)=\($0.name)" }.sorted() == places.map { "\($0.id)=\($0.name)" })
    #expect(try reader.state(of: [.place(PlaceID("p3"))]).places[PlaceID("p3")]?.name == "Place 3")
    withExtendedLifetime(folder) {}
  }

  /// A name pointing past the sidecar's text is not read: the sidecar is
  /// not used, and the names come from the records.
  @Test func aSidecarNamePointingOutsideItselfIsNotUsed() throws {
    let (folder, path) = try Self.compacted([.put(.place(Fixtures.place("p1", name: "Alepa")))])
    try Self.rewriteSidecar(path) { keys in
      // The one name's text starts far past the end (after it: the names'
      // count, then the memberships' and the titles' counts and marks, there being none).
      _ = Self.removeListings(&keys)
      for i in 0..<4 { keys[keys.count - 8 - 8 - 4 - 16 + 8 + i] = 0xFF }
    }
    let reader = Self.lazy(path)
    defer { reader.close() }
    #expect(try reader.placeNames().map { "\($0.id)=\($0.name)" } == ["p1=Alepa"])
    withExtendedLifetime(folder) {}
  }

  /// A sidecar written before it held the tasks' titles (it ends with the
  /// memberships) is still used for part reads, names and lists; titles
  /// are read from the tasks' records.
  @Test func aSidecarFromBeforeTitlesIsUsed() throws {
    var done = Fixtures.task("t2", title: "Post letters")
    try done.complete(at: Fixtures.epoch)
    let (folder, path) = try Self.compacted([.put(.place(Fixtures.place("p1"))), .put(.task(Fixtures.task("t1", title: "Buy milk"))), .put(.task(done))])
    try Self.rewriteSidecar(path) { keys in
      #expect(Self.removeListings(&keys) == 2)
      #expect(Self.removeTitles(&keys) == 2)
    }
    let reader = Self.lazy(path)
    defer { reader.close() }
    #expect(try reader.taskTitles().map { "\($0.id)=\($0.title)=\($0.completed)" }.sorted() == ["t1=Buy milk=false", "t2=Post letters=true"])
    #expect(try reader.placeNames().count == 1)
    withExtendedLifetime(folder) {}
  }

  /// A title pointing past the sidecar's text, or a completed flag that is
  /// neither 0 nor 1, is not read: the sidecar is not used, and the titles
  /// come from the records.
  @Test(arguments: [8, 16]) func aSidecarTitleOutsideItselfIsNotUsed(field: Int) throws {
    var task = Fixtures.task("t1", title: "Buy milk")
    try task.complete(at: Fixtures.epoch)
    let (folder, path) = try Self.compacted([.put(.task(task))])
    try Self.rewriteSidecar(path) { keys in
      // The one title's text start, or its flag (after it: the titles' count and mark).
      _ = Self.removeListings(&keys)
      for i in 0..<4 { keys[keys.count - 8 - 20 + field + i] = field == 16 ? (i == 0 ? 2 : 0) : 0xFF }
    }
    let reader = Self.lazy(path)
    defer { reader.close() }
    #expect(try reader.taskTitles().map { "\($0.id)=\($0.title)=\($0.completed)" } == ["t1=Buy milk=true"])
    withExtendedLifetime(folder) {}
  }

  /// A sidecar written before it held the tasks' listings (it ends with
  /// the titles) is still used; listings are made from the tasks' and
  /// their places' records.
  @Test func aSidecarFromBeforeListingsIsUsed() throws {
    var task = Fixtures.task("t1", title: "Buy milk")
    task.locations = [TaskLocation(id: LocationID("l1"), target: .place(PlaceID("p1")), radius: 120)]
    let (folder, path) = try Self.compacted([.put(.place(Fixtures.place("p1", name: "Alepa"))), .put(.task(task))])
    try Self.rewriteSidecar(path) { keys in #expect(Self.removeListings(&keys) == 1) }
    let reader = Self.lazy(path)
    defer { reader.close() }
    let listings = try reader.taskListings().listings()
    #expect(listings.map(\.title) == ["Buy milk"] && listings.first?.locations.first?.placeName == "Alepa")
    #expect(try reader.taskTitles().map(\.title) == ["Buy milk"], "the titles are still read from the sidecar")
    withExtendedLifetime(folder) {}
  }

  /// A listing pointing past the sidecar's text, or one whose bytes do not
  /// decode, is not read: the sidecar is not used, and the listings come
  /// from the records.
  @Test(arguments: [0, 1]) func aSidecarListingThatCannotBeReadIsNotUsed(damage: Int) throws {
    var task = Fixtures.task("t1", title: "Buy milk")
    task.locations = [TaskLocation(id: LocationID("l1"), target: .place(PlaceID("p1")), radius: 120)]
    let (folder, path) = try Self.compacted([.put(.place(Fixtures.place("p1", name: "Alepa"))), .put(.task(task))])
    try Self.rewriteSidecar(path) { keys in
      // The one listing's start and length, before its count and mark.
      let entry = keys.count - 8 - 8
      if damage == 0 {
        for i in 0..<4 { keys[entry + i] = 0xFF }
      } else {
        // Its first byte, the listing's version, made one this build does not know.
        let start = (0..<4).reduce(0) { $0 | Int(keys[entry + $1]) << (8 * $1) }
        keys[Self.textStart(keys) + start] = 0xEE
      }
    }
    let reader = Self.lazy(path)
    defer { reader.close() }
    let listings = try reader.taskListings().listings()
    #expect(listings.map(\.title) == ["Buy milk"] && listings.first?.locations.first?.placeName == "Alepa")
    withExtendedLifetime(folder) {}
  }

  /// Where a sidecar's text starts: past its fixed part, frames, entries and spots.
  static func textStart(_ keys: [UInt8]) -> Int {
    func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(keys[at + $1]) << (8 * $1) } }
    let (frames, entries, spots) = (word(8 + 12), word(8 + 16), word(8 + 20))
    return 8 + 4 * 7 + frames * 8 + entries * 16 + spots * 48
  }

  /// Damage in a frame of the snapshot a part read reads is found (the
  /// frame's checksum covers its bytes) and named with the file.
  @Test func aDamagedSnapshotIsReportedByAPartRead() throws {
    let (folder, reader) = try Self.damaged((0..<20).map { .put(.place(Fixtures.place("p\($0)"))) }, flipping: "snapshot-2", at: { $0 - 10 })
    defer { reader.close() }
    let error = #expect(throws: StoreError.self) { try reader.state(of: [.place(PlaceID("p1"))]) }
    #expect(error?.description.contains("snapshot-2") == true, "\(String(describing: error))")
    withExtendedLifetime(folder) {}
  }
}
