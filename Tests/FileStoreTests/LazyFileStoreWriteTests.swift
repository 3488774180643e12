import Domain
import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

/// Writes through a lazily opened `file:` store as the CLI makes it (a
/// shared writer with a clock): appended in place, without reading the
/// store whole, when the store allows it; through the whole store when not.
@Suite struct LazyFileStoreWriteTests {
  static func writer(_ directory: String, clock: ManualClock = ManualClock(), compactAfterBytes: Int = 16 << 20) -> LazyFileStore {
    let options = FileStoreOptions(compactAfterBytes: compactAfterBytes, access: .shared)
    return LazyFileStore(directory: directory, options: options, clock: clock) {
      try FileOperationStore(directory: directory, clock: clock, options: options)
    }
  }

  @Test func passesTheStoreConformanceKit() throws {
    try StoreConformance.verify(location: { $0.path + "/store" }, open: { Self.writer($0) })
  }

  @Test func passesThePartialReadingKit() throws {
    try PartialReadingConformance.verify(location: { $0.path + "/store" }, open: { Self.writer($0) })
  }

  /// A store holding places, a task and a record merged from a phone whose
  /// clock runs a day ahead, compacted; its path.
  static func compactedWithAStampAhead() throws -> (TemporaryDirectory, String, HLCTimestamp) {
    let folder = TemporaryDirectory()
    let path = folder.path + "/store"
    let store = try FileOperationStore(directory: path, clock: ManualClock())
    defer { store.close() }
    try store.append((0..<30).map { .put(.place(Fixtures.place("p\($0)", name: "Place \($0)"))) } + [.put(.task(Fixtures.task("t1")))])
    let phone = InMemoryOperationStore(replica: Fixtures.replica("phone"), clock: ManualClock(ManualClock().now().addingTimeInterval(86_400)))
    try phone.append([.put(.place(Fixtures.place("p3", name: "Alepa")))])
    let ahead = try #require(try store.merge(try phone.operations(since: nil)).first?.stamp)
    try store.compact()
    return (folder, path, ahead)
  }

  /// The store read whole, as a new process would.
  static func whole(_ path: String) throws -> StoreState {
    let store = try FileOperationStore(directory: path, clock: ManualClock(), options: FileStoreOptions(access: .shared))
    defer { store.close() }
    return store.state()
  }

  /// A write reads only the keys it writes: the store is never opened
  /// whole, what it wrote is durable and read back by a whole open, and
  /// its stamps are newer than every stamp the store holds (one merged
  /// from a clock a day ahead included), so a peer syncing from a cursor
  /// never misses it and it wins over what it replaces.
  @Test func aWriteAppendsInPlaceAfterTheNewestStamp() throws {
    let (folder, path, ahead) = try Self.compactedWithAStampAhead()
    let lazy = Self.writer(path)
    var task = Fixtures.task("t1", title: "Buy oat milk")
    task.notes = "the big carton"
    let written = try lazy.append([.put(.task(task))])
    #expect(!lazy.isOpenWhole, "the write read its task alone")
    #expect(!written.isEmpty && written.allSatisfy { $0.stamp > ahead }, "\(written.map(\.stamp)) after \(ahead)")
    // Then a second write by the same handle, and one after a write in the log that is ahead too.
    let more = try lazy.append([.put(.place(Fixtures.place("p4", name: "Lidl")))])
    #expect(more.allSatisfy { $0.stamp > written.last!.stamp })
    lazy.close()
    let state = try Self.whole(path)
    #expect(state.tasks[TaskID("t1")]?.title == "Buy oat milk" && state.tasks[TaskID("t1")]?.notes == "the big carton")
    #expect(state.places[PlaceID("p4")]?.name == "Lidl" && state.places[PlaceID("p3")]?.name == "Alepa")
    let reopened = try FileOperationStore(directory: path, clock: ManualClock())
    defer { reopened.close() }
    #expect(try reopened.operations(since: ahead).count == written.count + more.count)
    withExtendedLifetime(folder) {}
  }

  /// The newest stamp is also taken from the log after the snapshot.
  @Test func aStampAheadInTheLogIsPassedToo() throws {
    let folder = TemporaryDirectory()
    let path = folder.path + "/store"
    let store = try FileOperationStore(directory: path, clock: ManualClock(), options: FileStoreOptions(access: .shared))
    try store.append([.put(.task(Fixtures.task("t1")))])
    try store.compact()
    let phone = InMemoryOperationStore(replica: Fixtures.replica("phone"), clock: ManualClock(ManualClock().now().addingTimeInterval(3_600)))
    try phone.append([.put(.setting(key: "x", value: "1"))])
    let ahead = try #require(try store.merge(try phone.operations(since: nil)).first?.stamp)
    store.close()
    let lazy = Self.writer(path)
    defer { lazy.close() }
    let written = try lazy.append([.put(.setting(key: "y", value: "2"))])
    #expect(!lazy.isOpenWhole && written.first.map { $0.stamp > ahead } == true)
    withExtendedLifetime(folder) {}
  }

  /// A put of a task as it is held changes nothing and writes nothing, as
  /// through the whole store; a changed field is written as that field.
  @Test func aWriteIsStampedAgainstWhatIsHeld() throws {
    let (folder, path, _) = try Self.compactedWithAStampAhead()
    let lazy = Self.writer(path)
    defer { lazy.close() }
    let held = try #require(try lazy.state(of: [.task(TaskID("t1"))]).tasks[TaskID("t1")])
    let size = try FileManager.default.attributesOfItem(atPath: path + "/log-2")[.size] as? Int
    #expect(try lazy.append([.put(.task(held))]).isEmpty)
    #expect(try FileManager.default.attributesOfItem(atPath: path + "/log-2")[.size] as? Int == size, "nothing was written")
    var changed = held
    changed.title = "Post letters"
    let records = try lazy.append([.put(.task(changed))])
    #expect(records.count == 1 && records[0].fields != nil, "an update of the fields that changed")
    #expect(!lazy.isOpenWhole)
    withExtendedLifetime(folder) {}
  }

  /// What the store cannot write in place it writes whole, and the write
  /// lands the same: a manifest from before it named the snapshot's newest
  /// stamp, an unfinished write at the log's end (set aside by the whole
  /// open), and a log due for compaction (compacted by it).
  @Test func whatCannotBeWrittenInPlaceIsWrittenWhole() throws {
    let cases: [(String, (String) throws -> Void, Int)] = [
      ("a manifest without the newest stamp", { path in
        let manifest = try String(contentsOfFile: path + "/manifest", encoding: .utf8)
        let older = manifest.replacingOccurrences(of: #" latest=\S+"#, with: "", options: .regularExpression)
        #expect(older != manifest)
        try older.write(toFile: path + "/manifest", atomically: true, encoding: .utf8)
      }, 16 << 20),
      ("a torn tail", { path in
        let log = URL(fileURLWithPath: path + "/log-2")
        try (try Data(contentsOf: log) + Data([0x57, 0x48, 0x01, 0x02])).write(to: log)
      }, 16 << 20),
      ("a log due for compaction", { path in
        // A log longer than the snapshot, past a compaction size of one byte.
        let store = try FileOperationStore(directory: path, clock: ManualClock(), options: FileStoreOptions(access: .shared))
        defer { store.close() }
        try store.append((0..<200).map { .put(.setting(key: "note.\($0)", value: String(repeating: "x", count: 100))) })
      }, 1),
    ]
    for (name, change, compactAfter) in cases {
      let (folder, path, _) = try Self.compactedWithAStampAhead()
      try change(path)
      let lazy = Self.writer(path, compactAfterBytes: compactAfter)
      try lazy.append([.put(.task(Fixtures.task("t2", title: "Post letters")))])
      #expect(lazy.isOpenWhole, "\(name): written through the whole store")
      lazy.close()
      #expect(try Self.whole(path).tasks[TaskID("t2")]?.title == "Post letters", "\(name)")
      if compactAfter == 1 { #expect(FileManager.default.fileExists(atPath: path + "/snapshot-3"), "compacted") }
      withExtendedLifetime(folder) {}
    }
  }

  /// A store read in parts reads its whole log at every command, so with
  /// `compactLogPastBytes`, writes (in place) or a merge that took the log
  /// past it fold the log into a snapshot once, as the store closes,
  /// however much larger the snapshot is; without it the log grows until
  /// it passes the snapshot.
  @Test(arguments: [false, true]) func aLongLogIsFoldedForPartReads(merging: Bool) throws {
    for limit in [nil, 4096] as [Int?] {
      let folder = TemporaryDirectory()
      let path = folder.path + "/store"
      do {
        let store = try FileOperationStore(directory: path, clock: ManualClock(), options: FileStoreOptions(access: .shared))
        defer { store.close() }
        // A snapshot far larger than the limit: the snapshot rule alone would wait for a log this long.
        try store.append((0..<2000).map { .put(.place(Fixtures.place("p\($0)", name: "Place \($0)"))) })
        try store.compact()
      }
      let clock = ManualClock()
      let options = FileStoreOptions(access: .shared, compactLogPastBytes: limit)
      let lazy = LazyFileStore(directory: path, options: options, clock: clock) {
        try FileOperationStore(directory: path, clock: clock, options: options)
      }
      let notes = (0..<60).map { StoreOperation.put(.setting(key: "note.\($0)", value: String(repeating: "x", count: 100))) }
      if merging {
        let phone = InMemoryOperationStore(replica: Fixtures.replica("phone"), clock: ManualClock())
        try phone.append(notes)
        try lazy.merge(try phone.operations(since: nil))
      } else {
        for note in notes { try lazy.append([note]) }
      }
      // Not at each write: a command writing in chunks (an import) folds once, as it closes.
      #expect(FileManager.default.fileExists(atPath: path + "/snapshot-2"), "nothing folded before the close")
      lazy.close()
      // Folded once (the next generation) or not at all.
      let folded = FileManager.default.fileExists(atPath: path + "/snapshot-3")
      #expect(folded != FileManager.default.fileExists(atPath: path + "/snapshot-2"))
      #expect(folded == (limit != nil), "limit \(String(describing: limit)), merging \(merging)")
      let logSize = try #require(try FileManager.default.contentsOfDirectory(atPath: path).first { $0.hasPrefix("log-") }
        .map { try FileManager.default.attributesOfItem(atPath: path + "/" + $0)[.size] as? Int })
      if let limit { #expect(logSize! <= limit, "the log after the fold is short") } else { #expect(logSize! > 4096) }
      #expect(try Self.whole(path).settings.count { $0.key.hasPrefix("note.") } == 60, "nothing lost")
    }
  }

  /// A writer holding the lock (another process's write) is waited for,
  /// and the write lands after it, stamped after what it wrote.
  @Test func anotherWriterIsWaitedForAndSeen() throws {
    let (folder, path, _) = try Self.compactedWithAStampAhead()
    let lazy = Self.writer(path)
    defer { lazy.close() }
    // Another handle writes between two of this one's writes.
    let other = Self.writer(path)
    let first = try lazy.append([.put(.setting(key: "a", value: "1"))])
    let between = try other.append([.put(.setting(key: "b", value: "2"))])
    other.close()
    let last = try lazy.append([.put(.setting(key: "c", value: "3"))])
    #expect(first[0].stamp < between[0].stamp && between[0].stamp < last[0].stamp)
    #expect(try Self.whole(path).settings.filter { ["a", "b", "c"].contains($0.key) }.count == 3)
    withExtendedLifetime(folder) {}
  }
}
