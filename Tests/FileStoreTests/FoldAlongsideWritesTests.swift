import Domain
import Foundation
import Locking
import Persistence
import Testing
import TestSupport

@testable import FileStore

/// An exclusive store folds its log while writes go on (whilehered's
/// journal): writes made at each step of a fold are acknowledged before
/// the fold ends, and every one of them is in the store after it.
@Suite struct FoldAlongsideWritesTests {
  /// Writes `count` settings named `prefix-N` from inside a fold's step and
  /// says whether each was acknowledged within `bound` seconds (a fold that
  /// held the log for its whole length would hold them until it ends).
  static func write(_ store: FileOperationStore, _ prefix: String, count: Int, bound: TimeInterval = 20) -> Bool {
    (0..<count).allSatisfy { n in
      let done = DispatchSemaphore(value: 0)
      store.append([.put(.setting(key: "\(prefix)-\(n)", value: String(repeating: "x", count: 40)))]) { _ in done.signal() }
      return done.wait(timeout: .now() + bound) == .success
    }
  }

  @Test func writesDuringAFoldAreAnsweredAtOnceAndKept() throws {
    let directory = TemporaryDirectory()
    let store = try FileOperationStore(directory: directory.path, options: FileStoreOptions(compactAfterBytes: 4096))
    let answered = Locked<[FileOperationStore.FoldStep: Bool]>([:])
    store.condition.withLock {
      store.foldStep = { step in
        // Only the first fold writes, so the test knows what it made.
        guard answered.withLock({ $0[step] == nil }) else { return }
        let name = step == .snapshotWritten ? "bulk" : "tail"
        let ok = Self.write(store, name, count: 20)
        answered.withLock { $0[step] = ok }
      }
    }
    for n in 0..<60 { try store.append([.put(.setting(key: "before-\(n)", value: String(repeating: "y", count: 80)))]) }
    try store.compact()
    let held = store.state()
    store.close()

    #expect(answered.withLock { $0 } == [.snapshotWritten: true, .logCopied: true], "writes waited for the fold")
    for name in (0..<20).flatMap({ ["bulk-\($0)", "tail-\($0)"] }) + (0..<60).map({ "before-\($0)" }) {
      #expect(held.settings[name] != nil, "\(name)")
    }
    let log = try #require(try FileOperationStore.namedFiles(directory: directory.path)).log
    #expect(log != "log", "a fold moved the store to a later generation")
    let reopened = try FileOperationStore(directory: directory.path)
    defer { reopened.close() }
    #expect(reopened.state() == held)
    #expect(reopened.recovery == .none)
  }

  /// A fold that cannot write its files leaves the old pair named and the
  /// store writing, and the next fold goes ahead.
  @Test(arguments: ["snapshot-2.tmp", "log-2.tmp", "manifest.tmp"]) func aFoldThatFailsLeavesTheStoreWriting(blocker: String) throws {
    let directory = TemporaryDirectory()
    let store = try FileOperationStore(directory: directory.path)
    defer { store.close() }
    for n in 0..<10 { try store.append([.put(.setting(key: "k\(n)", value: "v"))]) }
    // A directory where the fold writes a file makes that write fail.
    try FileManager.default.createDirectory(atPath: directory.file(blocker), withIntermediateDirectories: false)
    let folds = Locked(0)
    store.condition.withLock {
      store.foldStep = { step in
        guard step == .logCopied else { return }
        let fold = folds.withLock { count in
          count += 1
          return count
        }
        _ = Self.write(store, "meanwhile\(fold)", count: 3)
      }
    }
    #expect(throws: (any Error).self) { try store.compact() }
    // The manifest, if any yet, still names the first generation.
    #expect(try FileOperationStore.namedFiles(directory: directory.path)?.log != "log-2")
    for name in ["snapshot-2", "keys-2", "log-2"] { #expect(!FileManager.default.fileExists(atPath: directory.file(name)), "\(name)") }
    try store.append([.put(.setting(key: "after", value: "v"))])
    try FileManager.default.removeItem(atPath: directory.file(blocker))
    try store.compact()
    let held = store.state()
    // Only a fold that failed at its manifest got as far as writing meanwhile.
    #expect(held.settings.count == 10 + 1 + (blocker == "manifest.tmp" ? 6 : 3))
    store.close()
    let reopened = try FileOperationStore(directory: directory.path)
    defer { reopened.close() }
    #expect(reopened.state() == held)
    #expect(try FileOperationStore.namedFiles(directory: directory.path)?.log == "log-2")
  }

  /// The writes a fold copies into its new log are the old log's bytes,
  /// framed and checksummed as they were: the manifest's length, checksum
  /// and count for the new log match what a reader finds.
  @Test func theNewLogCarriesWhatWasWrittenMeanwhile() throws {
    let directory = TemporaryDirectory()
    let store = try FileOperationStore(directory: directory.path)
    for n in 0..<30 { try store.append([.put(.setting(key: "first-\(n)", value: "v"))]) }
    store.condition.withLock {
      store.foldStep = { step in
        _ = Self.write(store, step == .snapshotWritten ? "bulk" : "tail", count: 7)
      }
    }
    try store.compact()
    let held = store.state()
    let described = Dictionary(store.describe().details, uniquingKeysWith: { a, _ in a })
    store.close()
    #expect(described["log"]?.hasSuffix("14 records") == true, "\(described["log"] ?? "")")
    // Opening checks the new log against the manifest, frame by frame.
    let reopened = try FileOperationStore(directory: directory.path)
    defer { reopened.close() }
    #expect(reopened.state() == held)
    #expect(reopened.state().settings.count == 44)
    #expect(reopened.recovery == .none)
  }
}
