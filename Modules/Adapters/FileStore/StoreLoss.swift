#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Foundation
import Persistence

/// Compares what a store directory holds with what its manifest says it
/// should, and says in words what is missing: each line names the file, what
/// was expected and what was found, and what that part held.
enum StoreLoss {
  static func check(_ manifest: StoreManifest, _ parts: StoreFiles.Parts) -> [String] {
    var losses: [String] = []
    if parts.replica == nil {
      losses.append("the replica file is missing (it names this copy for sync)")
    }
    if let expected = manifest.snapshot {
      let held = "it held \(holding(expected)) in \(expected.bytes) bytes"
      if let bytes = parts.snapshot {
        if bytes.count != expected.bytes {
          losses.append("the snapshot \(expected.file) is \(bytes.count) bytes, not the \(expected.bytes) written; \(held)")
        }
      } else {
        losses.append("the snapshot \(expected.file) is missing; \(held)")
      }
    }
    let log = manifest.log
    let written = "\(log.records) record\(log.records == 1 ? "" : "s") in \(log.bytes) bytes"
    if let bytes = parts.log {
      if bytes.count < log.bytes {
        losses.append(
          "the log \(log.file) is \(bytes.count) bytes but \(written) were written to it; what followed byte \(bytes.count) is lost")
      }
    } else {
      losses.append("the log \(log.file) is missing; \(written) since the last compaction are lost")
    }
    return losses
  }

  /// Parts of the right length whose bytes are not the ones written: run
  /// after the frames were read, so damage a frame's own checksum finds is
  /// reported first, with its offset.
  static func checkContents(_ manifest: StoreManifest, _ parts: StoreFiles.Parts) -> [String] {
    var losses: [String] = []
    if let expected = manifest.snapshot, let bytes = parts.snapshot, CRC32.checksum(bytes) != expected.crc {
      losses.append("the snapshot \(expected.file) differs from what was written (checksum); it held \(holding(expected))")
    }
    let log = manifest.log
    if let bytes = parts.log, bytes.count >= log.bytes,
      bytes.withUnsafeBytes({ CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<log.bytes])) }) != log.crc
    {
      losses.append("the log \(log.file) differs from what was written in its first \(log.bytes) bytes (checksum; \(log.records) records)")
    }
    return losses
  }

  /// A file written by a newer build is refused by version before anything
  /// else is said about it.
  static func checkVersions(directory: String, _ manifest: StoreManifest?, _ parts: StoreFiles.Parts) throws {
    let names = [(manifest?.snapshot?.file ?? "snapshot", parts.snapshot), (manifest?.log.file ?? "log", parts.log)]
    for (name, bytes) in names {
      guard let bytes, FileHeader.isOwn(bytes) else { continue }
      let version = FileHeader.version(of: bytes)
      if version > FileHeader.version { throw StoreError.unsupportedVersion(path: directory + "/" + name, found: Int(version)) }
    }
  }

  /// Without a manifest the store is either older than manifests (its files
  /// say version 2 or less) or new; records in a file of this version mean
  /// the manifest itself was lost.
  static func checkWithoutManifest(directory: String, _ parts: StoreFiles.Parts) throws -> [String] {
    var losses: [String] = []
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for name in names.sorted() where StoreManifest.isOwnFileName(name) && name != "log" && name != "snapshot" {
      if let bytes = try PosixFile.readAll(directory + "/" + name), bytes.count > FileHeader.size, FileHeader.isOwn(bytes) {
        losses.append("the manifest is missing, and \(name) holds \(bytes.count) bytes that it would have named")
      }
    }
    for (name, bytes) in [("log", parts.log), ("snapshot", parts.snapshot)] {
      if let bytes, bytes.count > FileHeader.size, FileHeader.isOwn(bytes), FileHeader.version(of: bytes) >= FileHeader.manifestVersion {
        losses.append("the manifest is missing, and \(name) holds \(bytes.count) bytes that it would have named")
      }
    }
    if parts.log == nil, parts.snapshot != nil {
      losses.append("the log is missing beside the snapshot")
    }
    return losses
  }

  static func holding(_ part: StoreManifest.Part) -> String {
    func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    return "\(count(part.tasks, "task")), \(count(part.places, "place")) and \(count(part.lists, "list")) (\(count(part.records, "record")))"
  }
}
