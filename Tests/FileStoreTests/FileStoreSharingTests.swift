import Domain
import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

/// Shared access: reads never wait for or are refused by a writer; writes
/// wait for one another and see what the others wrote.
@Suite struct FileStoreSharingTests {
  let shared = FileStoreOptions(access: .shared, lockWait: 5)

  @Test func aReaderReadsWhileAWriterHoldsTheStore() throws {
    let directory = TemporaryDirectory()
    let holder = try FileOperationStore(directory: directory.path)
    defer { holder.close() }
    try holder.append([.put(.place(Fixtures.place("p1")))])
    let reader = try FileOperationStore(directory: directory.path, options: shared)
    #expect(reader.state().places.count == 1)
    #expect(reader.describe().details.contains { $0.0 == "writer" && $0.1.contains("pid \(getpid())") })
    // Its write waits its bound and names the holder; nothing changes.
    let impatient = try FileOperationStore(directory: directory.path, options: FileStoreOptions(access: .shared, lockWait: 0.05))
    #expect(throws: StoreError.locked(path: directory.file("LOCK"), pid: getpid())) {
      try impatient.append([.put(.place(Fixtures.place("p2")))])
    }
    #expect(holder.state().places.count == 1)
  }

  @Test func sharedWritersInterleaveAndSeeEachOther() throws {
    let directory = TemporaryDirectory()
    let a = try FileOperationStore(directory: directory.path, options: shared)
    let b = try FileOperationStore(directory: directory.path, options: shared)
    try a.append([.put(.place(Fixtures.place("a1")))])
    try b.append([.put(.place(Fixtures.place("b1")))])
    #expect(b.state().places.keys.sorted() == [PlaceID("a1"), PlaceID("b1")], "b read a's write before its own")
    try a.append([.put(.place(Fixtures.place("a2")))])
    #expect(a.state().places.count == 3)
    try b.compact()
    try a.append([.put(.place(Fixtures.place("a3")))])
    #expect(a.state().places.count == 4, "a reloaded after b's compaction")
    a.close()
    b.close()
    let reopened = try FileOperationStore(directory: directory.path)
    defer { reopened.close() }
    #expect(reopened.state().places.count == 4)
    #expect(reopened.describe().notices.isEmpty)
  }

  @Test func concurrentSharedWritersAllLand() async throws {
    let directory = TemporaryDirectory()
    let options = shared
    let path = directory.path
    await withTaskGroup(of: Void.self) { group in
      for w in 0..<4 {
        group.addTask {
          guard let store = try? FileOperationStore(directory: path, options: options) else { return }
          for i in 0..<25 { _ = try? store.append([.put(.setting(key: "w\(w).\(i)", value: "x"))]) }
          store.close()
        }
      }
    }
    let reopened = try FileOperationStore(directory: directory.path)
    defer { reopened.close() }
    #expect(reopened.state().settings.count == 100)
  }

  @Test func aReaderThatOpenedBeforeACompactionKeepsItsView() throws {
    let directory = TemporaryDirectory()
    let writer = try FileOperationStore(directory: directory.path)
    for i in 0..<10 { try writer.append([.put(.place(Fixtures.place("p\(i)")))]) }
    let before = try FileOperationStore(directory: directory.path, options: shared)
    try writer.compact()
    try writer.append([.put(.place(Fixtures.place("p10")))])
    let after = try FileOperationStore(directory: directory.path, options: shared)
    #expect(before.state().places.count == 10)
    #expect(after.state().places.count == 11)
    writer.close()
  }

  @Test func aSharedReaderOfNoStoreCreatesNothing() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/absent"
    let reader = try FileOperationStore(directory: path, options: shared)
    #expect(reader.state().places.isEmpty)
    reader.close()
    #expect(!FileManager.default.fileExists(atPath: path))
    let writer = try FileOperationStore(directory: path, options: shared)
    try writer.append([.put(.place(Fixtures.place("p1")))])
    writer.close()
    let reopened = try FileOperationStore(directory: path, options: shared)
    #expect(reopened.state().places.count == 1)
  }
}
