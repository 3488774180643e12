import Domain
import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

/// A store that lost part of itself says so, and what; it never opens as a
/// smaller healthy store, and nothing is written over the evidence.
@Suite struct FileStoreLossTests {
  /// Five places, compacted into a snapshot, then two more in the log.
  func makeStore(_ directory: TemporaryDirectory) throws -> (snapshot: String, log: String) {
    let store = try FileOperationStore(directory: directory.path)
    for i in 0..<5 { try store.append([.put(.place(Fixtures.place("p\(i)")))]) }
    try store.compact()
    for i in 5..<7 { try store.append([.put(.place(Fixtures.place("p\(i)")))]) }
    store.close()
    let named = try #require(try FileOperationStore.namedFiles(directory: directory.path))
    return (directory.file(try #require(named.snapshot)), directory.file(named.log))
  }

  func files(_ directory: TemporaryDirectory) -> [String: Data] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    var files: [String: Data] = [:]
    for name in names where name != "LOCK" { files[name] = FileManager.default.contents(atPath: directory.file(name)) }
    return files
  }

  func losses(_ directory: TemporaryDirectory, access: FileStoreOptions.Access = .exclusive) -> [String]? {
    do {
      _ = try FileOperationStore(directory: directory.path, options: FileStoreOptions(access: access))
      return nil
    } catch StoreError.incomplete(_, let losses) {
      return losses
    } catch {
      Issue.record("expected incomplete, got \(error)")
      return nil
    }
  }

  @Test func aDeletedSnapshotIsNamedWithWhatItHeld() throws {
    let directory = TemporaryDirectory()
    let (snapshot, _) = try makeStore(directory)
    try FileManager.default.removeItem(atPath: snapshot)
    let before = files(directory)
    for access in [FileStoreOptions.Access.exclusive, .shared] {
      let found = try #require(losses(directory, access: access))
      #expect(found.count == 1)
      #expect(found[0].contains("snapshot-2 is missing"), "\(found)")
      #expect(found[0].contains("5 places"), "\(found)")
    }
    #expect(files(directory) == before, "nothing was written over the evidence")
  }

  @Test func anEmptiedOrDeletedLogIsNamed() throws {
    let directory = TemporaryDirectory()
    let (_, log) = try makeStore(directory)
    let original = try #require(FileManager.default.contents(atPath: log))
    _ = FileManager.default.createFile(atPath: log, contents: Data())
    let emptied = try #require(losses(directory))
    #expect(emptied.first?.contains("is 0 bytes but 2 records") == true, "\(emptied)")
    _ = FileManager.default.createFile(atPath: log, contents: original.prefix(original.count - 1))
    let shortened = try #require(losses(directory))
    #expect(shortened.first?.contains("is \(original.count - 1) bytes") == true, "\(shortened)")
    try FileManager.default.removeItem(atPath: log)
    let deleted = try #require(losses(directory))
    #expect(deleted.first?.contains("log-2 is missing; 2 records") == true, "\(deleted)")
    // Put back, the store opens whole.
    _ = FileManager.default.createFile(atPath: log, contents: original)
    let store = try FileOperationStore(directory: directory.path)
    #expect(store.state().places.count == 7)
    store.close()
  }

  @Test func aDeletedManifestIsNamed() throws {
    let directory = TemporaryDirectory()
    _ = try makeStore(directory)
    try FileManager.default.removeItem(atPath: directory.file("manifest"))
    let found = try #require(losses(directory))
    #expect(found.contains { $0.contains("the manifest is missing") }, "\(found)")
  }

  @Test func aLogWhoseBytesChangedIsNamed() throws {
    let directory = TemporaryDirectory()
    let (_, log) = try makeStore(directory)
    // A valid store's log of the same length put in its place: frames check, the manifest's checksum does not.
    let other = TemporaryDirectory()
    let (_, otherLog) = try makeStore(other)
    let bytes = try #require(FileManager.default.contents(atPath: otherLog))
    #expect(bytes.count == (try #require(FileManager.default.contents(atPath: log))).count)
    _ = FileManager.default.createFile(atPath: log, contents: bytes)
    // Same records, but stamps from another replica: the bytes differ.
    let found = try #require(losses(directory))
    #expect(found.first?.contains("differs from what was written") == true, "\(found)")
  }

  @Test func recoverKeepsWhatIsLeftAndSetsTheRestAside() throws {
    let directory = TemporaryDirectory()
    let (snapshot, _) = try makeStore(directory)
    let snapshotBytes = try #require(FileManager.default.contents(atPath: snapshot))
    try FileManager.default.removeItem(atPath: snapshot)
    let outcome = try StoreSalvage.recover(directory: directory.path, now: Date(timeIntervalSince1970: 1_800_000_000))
    #expect(outcome.losses.count == 1)
    let aside = try #require(outcome.setAside)
    #expect(FileManager.default.fileExists(atPath: directory.file(aside + "/manifest")))
    let store = try FileOperationStore(directory: directory.path)
    defer { store.close() }
    #expect(store.state().places.count == 2, "the log's two places are kept")
    let notices = store.describe().notices
    #expect(notices.count == 1)
    #expect(notices.first?.contains("snapshot-2 is missing") == true)
    #expect(FileManager.default.contents(atPath: snapshot) == nil)
    #expect(snapshotBytes.count > 8)
    // A second recover finds nothing to do.
    store.close()
    #expect(try StoreSalvage.recover(directory: directory.path).setAside == nil)
  }

  @Test func aTornTailIsKeptAndNoticedUntilAcknowledged() throws {
    let directory = TemporaryDirectory()
    let (_, log) = try makeStore(directory)
    let clean = try #require(FileManager.default.contents(atPath: log))
    let torn = clean + Data([0x57, 0x48, 0x52, 0x31, 0x40, 0, 0])
    _ = FileManager.default.createFile(atPath: log, contents: torn)
    // A reader leaves the tail alone: it may be a write in progress.
    let reader = try FileOperationStore(directory: directory.path, options: FileStoreOptions(access: .shared))
    #expect(reader.state().places.count == 7)
    reader.close()
    #expect(FileManager.default.contents(atPath: log) == torn)
    // The writer that trims it keeps the bytes and a notice; another process sees the notice.
    let writer = try FileOperationStore(directory: directory.path)
    let evidence = try #require(writer.recovery.evidence)
    writer.close()
    #expect(FileManager.default.contents(atPath: directory.file(evidence)) == Data([0x57, 0x48, 0x52, 0x31, 0x40, 0, 0]))
    #expect(FileManager.default.contents(atPath: log) == clean)
    let later = try FileOperationStore(directory: directory.path, options: FileStoreOptions(access: .shared))
    let notices = later.describe().notices
    #expect(notices.count == 1)
    #expect(notices.first?.contains("dropped an unfinished write of 7 bytes") == true)
    try later.acknowledgeNotices()
    #expect(later.describe().notices.isEmpty)
    #expect(FileManager.default.contents(atPath: directory.file("notices.shown")).map { String(decoding: $0, as: UTF8.self) }?.contains("7 bytes") == true)
    later.close()
  }

  @Test func leftoversOfAnInterruptedCompactionAreRemoved() throws {
    let directory = TemporaryDirectory()
    _ = try makeStore(directory)
    // A crash after the next generation's files were written, before the manifest named them.
    _ = FileManager.default.createFile(atPath: directory.file("snapshot-3"), contents: Data("partial".utf8))
    _ = FileManager.default.createFile(atPath: directory.file("log-3"), contents: Data())
    let store = try FileOperationStore(directory: directory.path)
    #expect(store.state().places.count == 7)
    store.close()
    #expect(!FileManager.default.fileExists(atPath: directory.file("snapshot-3")))
    #expect(!FileManager.default.fileExists(atPath: directory.file("log-3")))
  }
}
