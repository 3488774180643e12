import Domain
import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

@Suite struct FileOperationStoreTests {
  @Test func passesTheStoreConformanceKit() throws {
    try StoreConformance.verify(location: { $0.path + "/store" }, open: { try FileOperationStore(directory: $0, clock: ManualClock()) })
  }

  @Test func aSecondOpenerIsToldWhoHoldsTheStore() throws {
    let directory = TemporaryDirectory()
    let first = try FileOperationStore(directory: directory.path)
    defer { first.close() }
    let error = #expect(throws: StoreError.self) { try FileOperationStore(directory: directory.path) }
    #expect(error == .locked(path: directory.file("LOCK"), pid: getpid()))
    #expect(error?.description.contains("store in use by pid \(getpid())") == true)
  }

  /// The files of `directory` this process holds open now.
  static func held(under directory: TemporaryDirectory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
    }.filter { $0.hasPrefix(directory.path) }.sorted()
  }

  /// whilehered keeps a store open per person: without `keepLogOpen` each
  /// holds its writer lock and nothing else between writes, so 10,000
  /// people fit in 20,000 files; a store written all the time keeps its log.
  @Test func aStoreOneOfManyHoldsOnlyItsLockBetweenWrites() throws {
    let directory = TemporaryDirectory()
    let store = try FileOperationStore(directory: directory.path, options: FileStoreOptions(keepLogOpen: false))
    try store.append([.put(.setting(key: "k", value: "v"))])
    #expect(try Self.held(under: directory) == [directory.file("LOCK")])
    store.close()
    let reopened = try FileOperationStore(directory: directory.path, options: FileStoreOptions(keepLogOpen: false))
    defer { reopened.close() }
    #expect(reopened.state().settings["k"] == "v", "what was written between opens is kept")
    let busy = TemporaryDirectory()
    let journal = try FileOperationStore(directory: busy.path)
    defer { journal.close() }
    #expect(try Self.held(under: busy).count == 2, "the default keeps its log open too")
  }

  @Test func closingReleasesTheLock() throws {
    let directory = TemporaryDirectory()
    try FileOperationStore(directory: directory.path).close()
    let again = try FileOperationStore(directory: directory.path)
    again.close()
  }

  @Test func filesAreOwnerOnly() throws {
    let directory = TemporaryDirectory()
    let store = try FileOperationStore(directory: directory.path + "/s")
    try store.append([.put(.place(Fixtures.place("p1")))])
    try store.compact()
    store.close()
    for name in ["log-2", "snapshot-2", "replica", "LOCK", "manifest"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: directory.path + "/s/" + name)
      #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(name)")
    }
    let dir = try FileManager.default.attributesOfItem(atPath: directory.path + "/s")
    #expect((dir[.posixPermissions] as? Int) == 0o700)
  }

  @Test func compactionKeepsStateAndTombstones() throws {
    let directory = TemporaryDirectory()
    let store = try FileOperationStore(
      directory: directory.path, options: FileStoreOptions(compactAfterBytes: 4096, snapshotFrameRecords: 7))
    for i in 0..<200 {
      try store.append([.put(.place(Fixtures.place("p\(i)")))])
      if i % 3 == 0 { try store.append([.delete(.place(PlaceID("p\(i)")))]) }
      if i % 3 == 1 {
        // Field updates and tags must survive the fold with their stamps.
        var place = Fixtures.place("p\(i)")
        place.personal.note = "note \(i)"
        place.personal.tags = ["tag\(i % 4)"]
        try store.append([.put(.place(place))])
      }
    }
    let before = store.state()
    #expect(before.places[PlaceID("p1")]?.personal.tags == ["tag1"])
    store.close()
    let log = try #require(try FileOperationStore.namedFiles(directory: directory.path)).log
    #expect(log != "log-1", "compaction moved to a later generation")
    let logSize = try FileManager.default.attributesOfItem(atPath: directory.file(log))[.size] as? Int ?? 0
    #expect(logSize < 8192, "the log was folded into the snapshot")
    let reopened = try FileOperationStore(directory: directory.path)
    defer { reopened.close() }
    #expect(reopened.state().places == before.places)
    #expect(reopened.state() == before)
  }

  @Test func concurrentWritersAreAllDurable() async throws {
    let directory = TemporaryDirectory()
    let store = try FileOperationStore(directory: directory.path)
    await withTaskGroup(of: Void.self) { group in
      for writer in 0..<8 {
        group.addTask {
          for n in 0..<25 { _ = try? store.append([.put(.setting(key: "w\(writer)-\(n)", value: "v"))]) }
        }
      }
    }
    store.close()
    let reopened = try FileOperationStore(directory: directory.path)
    defer { reopened.close() }
    #expect(reopened.state().settings.count == 200)
  }
}
