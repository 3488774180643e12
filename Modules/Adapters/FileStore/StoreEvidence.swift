#if canImport(Glibc)
  import Glibc
#endif
import Foundation

/// What a writer repairs keeps its evidence: dropped bytes go to
/// `recovered/`, and a line in `notices` says what happened until
/// `whilehere doctor` has shown it, whichever command did the repair.
enum StoreEvidence {
  static let recoveredDirectory = "recovered"
  static let noticesFile = "notices"
  static let shownFile = "notices.shown"

  static func keepTornTail(_ bytes: [UInt8], of logName: String, at offset: Int, directory: String, now: Date) throws -> FileRecovery {
    let folder = directory + "/" + recoveredDirectory
    try PosixFile.makeDirectory(folder)
    let name = "\(logName)-torn-at-\(offset)-\(stamp(now)).bin"
    try StoreFiles.writeAtomically(bytes, to: folder + "/" + name, directory: folder)
    try addNotice(
      "\(iso(now)): dropped an unfinished write of \(bytes.count) bytes at offset \(offset) of \(logName) "
        + "(a crash cut it short before it was acknowledged); the bytes are kept in \(recoveredDirectory)/\(name)",
      directory: directory)
    return FileRecovery(tornBytesDropped: bytes.count, tornOffset: offset, evidence: recoveredDirectory + "/" + name)
  }

  static func addNotice(_ line: String, directory: String) throws {
    let path = directory + "/" + noticesFile
    let fd = try PosixFile.open(path, flags: O_WRONLY | O_APPEND | O_CREAT)
    defer { Glibc.close(fd) }
    try PosixFile.writeAll(fd, Array((line + "\n").utf8), path: path)
    try PosixFile.sync(fd, path: path)
  }

  /// Notices no `doctor` has shown yet.
  static func notices(directory: String) -> [String] {
    guard let bytes = try? PosixFile.readAll(directory + "/" + noticesFile) else { return [] }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// After `doctor` showed them: moved to `notices.shown`, not deleted.
  static func acknowledge(directory: String) throws {
    let shown = notices(directory: directory)
    guard !shown.isEmpty else { return }
    let path = directory + "/" + shownFile
    let fd = try PosixFile.open(path, flags: O_WRONLY | O_APPEND | O_CREAT)
    defer { Glibc.close(fd) }
    try PosixFile.writeAll(fd, Array(shown.map { $0 + "\n" }.joined().utf8), path: path)
    try PosixFile.sync(fd, path: path)
    guard unlink(directory + "/" + noticesFile) == 0 || errno == ENOENT else {
      throw PosixFile.error(directory + "/" + noticesFile, "remove")
    }
  }

  /// Snapshots and logs of other generations: what an interrupted compaction
  /// left. The manifest no longer names them and their records are in the
  /// named pair, so they go.
  static func removeLeftovers(directory: String, keeping manifest: StoreManifest) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let keys = manifest.snapshot.map { _ in SnapshotKeys.fileName(manifest.generation) }
    let kept: Set<String> = [manifest.log.file, manifest.snapshot?.file, keys].compactMap { $0 }.reduce(into: []) { $0.insert($1) }
    for name in names where StoreManifest.isOwnFileName(name) && !kept.contains(name) {
      unlink(directory + "/" + name)
    }
    for name in names where name.hasSuffix(".tmp") && StoreManifest.isOwnFileName(String(name.dropLast(4))) {
      unlink(directory + "/" + name)
    }
  }

  static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

  private static func stamp(_ date: Date) -> String {
    iso(date).replacingOccurrences(of: ":", with: "")
  }
}
