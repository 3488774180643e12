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
    return try #require(FileManager.default.contents(atPath: logPath(directory)).map { [UInt8]($0) })
  }

  /// The log the manifest names.
  func logPath(_ directory: TemporaryDirectory) throws -> String {
    directory.file(try #require(try FileOperationStore.namedFiles(directory: directory.path)).log)
  }

  /// A store as builds before manifests left it: replica, `log` marked
  /// version 2, no manifest.
  func makeLegacyStore(_ directory: TemporaryDirectory, log: [UInt8]) throws {
    try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
    var bytes = log
    bytes[6] = 2
    write(bytes, to: directory.file("log"))
    write(Array("legacy000001\n".utf8), to: directory.file("replica"))
  }

  func write(_ bytes: [UInt8], to path: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
  }

  /// What a crash in the middle of the third write leaves: the manifest
  /// as it was before that write, the log with part of it.
  @Test(arguments: [1, 5, 11, 12, 20])
  func aTornTailIsDroppedAndTheRestKept(cut: Int) throws {
    let directory = TemporaryDirectory()
    let first = try FileOperationStore(directory: directory.path)
    for i in 0..<2 { try first.append([.put(.place(Fixtures.place("p\(i)")))]) }
    first.close()
    let manifest = try #require(FileManager.default.contents(atPath: directory.file("manifest")))
    let log = try makeStore(directory)
    write([UInt8](manifest), to: directory.file("manifest"))
    write(Array(log.dropLast(cut)), to: try logPath(directory))
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
    write(log + [UInt8](repeating: 0, count: 4096), to: try logPath(directory))
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
    let path = try logPath(directory)
    write(log, to: path)
    let error = #expect(throws: StoreError.self) { try FileOperationStore(directory: directory.path) }
    guard case .corrupt(let damaged, let offset, let reason)? = error else {
      Issue.record("expected corrupt, got \(String(describing: error))")
      return
    }
    #expect(damaged == path)
    #expect(offset == 8)
    #expect(reason.contains("checksum"))
    #expect(FileManager.default.contents(atPath: path).map { [UInt8]($0) } == log)
    // The lock was released: after the person repairs the file, it opens.
    log[8 + 12 + 5] ^= 0xFF
    write(log, to: path)
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
    var bytes = try makeStore(TemporaryDirectory())
    bytes[6] = 1
    try makeLegacyStore(directory, log: bytes)
    write(bytes, to: directory.file("log"))
    let store = try FileOperationStore(directory: directory.path)
    var place = store.state().places.values.first!
    place.personal.tags = ["upgraded"]
    try store.append([.put(.place(place))])
    store.close()
    // The old log keeps its name, now named by a manifest and marked 4 (this build's format).
    #expect(try FileOperationStore.namedFiles(directory: directory.path)?.log == "log")
    let upgraded = try #require(FileManager.default.contents(atPath: directory.file("log")))
    #expect(upgraded[6] == 4 && upgraded[7] == 0)
    let reopened = try FileOperationStore(directory: directory.path)
    #expect(reopened.state().places[place.id]?.personal.tags == ["upgraded"])
    #expect(reopened.state().places.count == 3)
    reopened.close()
    var future = Array(upgraded)
    future[6] = 5
    write(future, to: directory.file("log"))
    let error = #expect(throws: StoreError.self) { try FileOperationStore(directory: directory.path) }
    #expect(error == .unsupportedVersion(path: directory.file("log"), found: 5))
  }

  @Test func aForeignFileIsRefusedByName() throws {
    let directory = TemporaryDirectory()
    try makeLegacyStore(directory, log: try makeStore(TemporaryDirectory()))
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
    let name = try #require(try FileOperationStore.namedFiles(directory: directory.path)?.snapshot)
    var snapshot = try #require(FileManager.default.contents(atPath: directory.file(name)).map { [UInt8]($0) })
    snapshot.removeLast(3)
    write(snapshot, to: directory.file(name))
    #expect(throws: StoreError.self) { try FileOperationStore(directory: directory.path) }
    #expect(FileManager.default.contents(atPath: directory.file(name)).map { [UInt8]($0) } == snapshot)
  }

  @Test func aStorePathThatIsAFileIsAClearError() throws {
    let directory = TemporaryDirectory()
    write(Array("not a directory".utf8), to: directory.file("plain"))
    let error = #expect(throws: StoreError.self) { try FileOperationStore(directory: directory.file("plain")) }
    #expect(error?.description.contains(directory.file("plain")) == true)
    #expect(FileManager.default.contents(atPath: directory.file("plain")) == Data("not a directory".utf8))
  }
}
