#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Foundation
import Persistence

/// `whilehere store recover`: when a store refuses to open because part of
/// it is missing, keep what is left. Every file is first copied to
/// `recovered/set-aside-TIME/`, so nothing is destroyed; then the manifest
/// is rewritten to describe the files as they are, and a notice says what
/// was lost until `doctor` shows it.
public enum StoreSalvage {
  public struct Outcome: Sendable, Equatable {
    /// What was missing, as opening the store said it.
    public var losses: [String]
    /// Where the copies of the files as they were went.
    public var setAside: String?
  }

  public static func recover(directory: String, now: Date = Date()) throws -> Outcome {
    let lock = try FileLock(path: directory + "/LOCK", wait: 10)
    defer { lock.release() }
    let losses: [String]
    do {
      _ = try StoreFiles.load(directory: directory, newReplica: ReplicaID.random(), mode: .reader, now: now)
      return Outcome(losses: [], setAside: nil)
    } catch StoreError.incomplete(_, let found) {
      losses = found
    }
    let folder = "\(StoreEvidence.recoveredDirectory)/set-aside-\(StoreEvidence.iso(now).replacingOccurrences(of: ":", with: ""))"
    try PosixFile.makeDirectory(directory + "/" + folder)
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
      StoreManifest.isOwnFileName($0) || $0 == StoreManifest.fileName || $0 == "replica"
    }
    for name in names.sorted() {
      if let bytes = try PosixFile.readAll(directory + "/" + name) {
        try StoreFiles.writeAtomically(bytes, to: directory + "/" + folder + "/" + name, directory: directory + "/" + folder)
      }
    }
    let manifest = try? StoreManifest.read(directory: directory)
    let generation = manifest?.generation ?? names.compactMap(generation(of:)).max() ?? 1
    let snapshotName = manifest?.snapshot?.file ?? StoreManifest.snapshotName(generation)
    let logName = manifest?.log.file ?? StoreManifest.logName(generation)
    var snapshot: StoreManifest.Part?
    if let bytes = try PosixFile.readAll(directory + "/" + snapshotName) {
      let records = try StoreFiles.decodeSnapshot(bytes, path: directory + "/" + snapshotName)
      var state = StoreState()
      state.apply(contentsOf: records)
      snapshot = StoreManifest.Part(
        file: snapshotName, bytes: bytes.count, crc: CRC32.checksum(bytes), records: records.count, tasks: state.tasks.count,
        places: state.places.count, lists: state.lists.count)
    }
    var log = try PosixFile.readAll(directory + "/" + logName) ?? []
    if log.count < FileHeader.size {
      log = FileHeader.bytes(kind: StoreFiles.logKind)
      try StoreFiles.writeAtomically(log, to: directory + "/" + logName, directory: directory)
    }
    var ignored = StoreState()
    let scan = try StoreFiles.scanLog(log, path: directory + "/" + logName) { ignored.apply(contentsOf: $0) }
    if !PosixFile.exists(directory + "/replica") {
      try StoreFiles.writeAtomically(Array((ReplicaID.random().rawValue + "\n").utf8), to: directory + "/replica", directory: directory)
    }
    let rebuilt = StoreManifest(
      generation: generation, snapshot: snapshot,
      log: StoreManifest.Part(
        file: logName, bytes: scan.validEnd,
        crc: log.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<scan.validEnd])) }, records: scan.records))
    try rebuilt.write(directory: directory)
    try StoreEvidence.addNotice(
      "\(StoreEvidence.iso(now)): 'store recover' kept what was left; lost: \(losses.joined(separator: "; ")). "
        + "The files as they were are in \(folder)",
      directory: directory)
    return Outcome(losses: losses, setAside: folder)
  }

  private static func generation(of name: String) -> Int? {
    for prefix in ["log-", "snapshot-"] where name.hasPrefix(prefix) { return Int(name.dropFirst(prefix.count)) }
    return nil
  }
}
