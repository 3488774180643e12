import Domain
import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

@Suite struct FileStoreRecoveryTests {
  /// A store with three acknowledged batches; returns the log's bytes.
  func makeStore(_ directory: TemporaryDirectory) throws -> [UInt8] {
    let store = try FileOperationStore(directory: directory.path)
    for i in 0..<3 { try store.append([.put(.place(Fixtures.place("p\(i)")))]) }
    store.close()
    return try #require(FileManager.default.contents(atPath: directory.file("log")).map { [UInt8]($0) })
  }

  func write(_ bytes: [UInt8], to path: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
  }

  @Test(arguments: [1, 5, 11, 12, 20])
  func aTornTailIsDroppedAndTheRestKept(cut: Int) throws {
    let directory = TemporaryDirectory()
    let log = try makeStore(directory)
    write(Array(log.dropLast(cut)), to: directory.file("log"))
    let store = try FileOperationStore(directory: directory.path)
    defer { store.close() }
    #expect(store.state().places.count == 2)
    #expect(store.recovery.tornBytesDropped > 0)
    try store.append([.put(.place(Fixtures.place("p9")))])
    #expect(store.state().places.count == 3)
  }

  @Test func zeroFilledTailIsTreatedAsTorn() throws {
    let directory = TemporaryDirectory()
    let log = try makeStore(directory)
    write(log + [UInt8](repeating: 0, count: 4096), to: directory.file("log"))
    let store = try FileOperationStore(directory: directory.path)
    defer { store.close() }
    #expect(store.state().places.count == 3)
    #expect(store.recovery.tornBytesDropped == 4096)
  }

  @Test func damageInTheMiddleIsReportedWithItsOffsetAndNothingChanges() throws {
    let directory = TemporaryDirectory()
    var log = try makeStore(directory)
    // Flip a byte inside the first record's payload (header is 8 bytes, frame header 12).
    log[8 + 12 + 5] ^= 0xFF
    write(log, to: directory.file("log"))
    let error = #expect(throws: StoreError.self) { try FileOperationStore(directory: directory.path) }
    guard case .corrupt(let path, let offset, let reason)? = error else {
      Issue.record("expected corrupt, got \(String(describing: error))")
      return
    }
    #expect(path == directory.file("log"))
    #expect(offset == 8)
    #expect(reason.contains("checksum"))
    #expect(FileManager.default.contents(atPath: directory.file("log")).map { [UInt8]($0) } == log)
    // The lock was released: after the person repairs the file, it opens.
    write(try makeCleanCopy(), to: directory.file("log"))
    try FileOperationStore(directory: directory.path).close()
  }

  func makeCleanCopy() throws -> [UInt8] {
    let other = TemporaryDirectory()
    return try makeStore(other)
  }

  /// A store written by the previous format version opens, and its log is
  /// marked with this version before anything only it reads is appended; a
  /// future version is refused by number.
  @Test func anOlderFormatOpensAndAFutureOneIsRefused() throws {
    let directory = TemporaryDirectory()
    var bytes = try makeStore(directory)
    bytes[6] = 1
    write(bytes, to: directory.file("log"))
    let store = try FileOperationStore(directory: directory.path)
    var place = store.state().places.values.first!
    place.personal.tags = ["upgraded"]
    try store.append([.put(.place(place))])
    store.close()
    let upgraded = try #require(FileManager.default.contents(atPath: directory.file("log")))
    #expect(upgraded[6] == 2 && upgraded[7] == 0)
    let reopened = try FileOperationStore(directory: directory.path)
    #expect(reopened.state().places[place.id]?.personal.tags == ["upgraded"])
    reopened.close()
    var future = Array(upgraded)
    future[6] = 3
    write(future, to: directory.file("log"))
    let error = #expect(throws: StoreError.self) { try FileOperationStore(directory: directory.path) }
    #expect(error.map { String(describing: $0) }?.contains("3") == true)
  }

  @Test func aForeignFileIsRefusedByName() throws {
    let directory = TemporaryDirectory()
    _ = try makeStore(directory)
    write(Array("hello, world\n".utf8), to: directory.file("log"))
    let error = #expect(throws: StoreError.self) { try FileOperationStore(directory: directory.path) }
    #expect(error?.description.contains("not a WhileHere WHLOG file") == true)
  }

  @Test func aDamagedSnapshotIsReported() throws {
    let directory = TemporaryDirectory()
    let store = try FileOperationStore(directory: directory.path)
    try store.append([.put(.place(Fixtures.place("p1")))])
    try store.compact()
    store.close()
    var snapshot = try #require(FileManager.default.contents(atPath: directory.file("snapshot")).map { [UInt8]($0) })
    snapshot.removeLast(3)
    write(snapshot, to: directory.file("snapshot"))
    #expect(throws: StoreError.self) { try FileOperationStore(directory: directory.path) }
  }

  @Test func aStorePathThatIsAFileIsAClearError() throws {
    let directory = TemporaryDirectory()
    write(Array("not a directory".utf8), to: directory.file("plain"))
    let error = #expect(throws: StoreError.self) { try FileOperationStore(directory: directory.file("plain")) }
    #expect(error?.description.contains(directory.file("plain")) == true)
    #expect(FileManager.default.contents(atPath: directory.file("plain")) == Data("not a directory".utf8))
  }
}
