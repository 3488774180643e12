#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Persistence

/// Reading a store directory into memory: replica id, snapshot, then the log
/// replayed over it (replay is idempotent, so a crash between writing a
/// snapshot and truncating the log is harmless).
struct StoreFiles {
  var replica: ReplicaID
  var state: StoreState
  var logFD: Int32
  var logSize: Int
  var snapshotSize: Int
  var recovery: FileRecovery

  static let logKind = "WHLOG"
  static let snapshotKind = "WHSNP"

  static func load(directory: String, newReplica: ReplicaID) throws -> StoreFiles {
    let replica = try loadReplica(directory: directory, newReplica: newReplica)
    var state = StoreState()
    let snapshotPath = directory + "/snapshot"
    var snapshotSize = 0
    if let bytes = try PosixFile.readAll(snapshotPath) {
      snapshotSize = bytes.count
      try bytes.withUnsafeBytes { buffer in
        try FileHeader.check(buffer, kind: snapshotKind, path: snapshotPath)
        let scan = FrameScan(buffer, from: FileHeader.size)
        switch scan.outcome {
        case .clean: break
        case .tornTail(let offset):
          // Snapshots appear by rename only when complete, so any bad bytes are damage.
          throw StoreError.corrupt(path: snapshotPath, offset: UInt64(offset), reason: "snapshot ends in an incomplete record")
        case .damaged(let offset, let reason):
          throw StoreError.corrupt(path: snapshotPath, offset: UInt64(offset), reason: reason)
        }
        var records: [OperationRecord] = []
        for range in scan.payloads {
          records += try RecordCodec.decode(
            UnsafeRawBufferPointer(rebasing: buffer[range]), path: snapshotPath, offset: range.lowerBound - Frame.headerSize)
        }
        state.reserveCapacity(records.count)
        state.apply(contentsOf: records)
      }
    }
    let (logFD, logSize, recovery) = try loadLog(directory: directory, into: &state)
    return StoreFiles(
      replica: replica, state: state, logFD: logFD, logSize: logSize, snapshotSize: snapshotSize,
      recovery: recovery)
  }

  private static func loadLog(directory: String, into state: inout StoreState) throws -> (Int32, Int, FileRecovery) {
    let path = directory + "/log"
    guard let bytes = try PosixFile.readAll(path) else {
      let fd = try PosixFile.open(path, flags: O_WRONLY | O_APPEND | O_CREAT | O_EXCL)
      do {
        try PosixFile.writeAll(fd, FileHeader.bytes(kind: logKind), path: path)
        try PosixFile.sync(fd, path: path)
        try PosixFile.syncDirectory(directory)
      } catch {
        Glibc.close(fd)
        throw error
      }
      return (fd, FileHeader.size, .none)
    }
    if bytes.count < FileHeader.size && Array(FileHeader.bytes(kind: logKind).prefix(bytes.count)) == bytes {
      // A crash while the log was being created: rewrite the header.
      let fd = try PosixFile.open(path, flags: O_WRONLY | O_APPEND)
      _ = ftruncate(fd, 0)
      try PosixFile.writeAll(fd, FileHeader.bytes(kind: logKind), path: path)
      try PosixFile.sync(fd, path: path)
      return (fd, FileHeader.size, .none)
    }
    var recovery = FileRecovery.none
    var validEnd = bytes.count
    try bytes.withUnsafeBytes { buffer in
      try FileHeader.check(buffer, kind: logKind, path: path)
      let scan = FrameScan(buffer, from: FileHeader.size)
      switch scan.outcome {
      case .clean: break
      case .tornTail(let offset):
        validEnd = offset
        recovery = FileRecovery(tornBytesDropped: bytes.count - offset, tornOffset: offset)
      case .damaged(let offset, let reason):
        throw StoreError.corrupt(path: path, offset: UInt64(offset), reason: reason)
      }
      for range in scan.payloads {
        let records = try RecordCodec.decode(
          UnsafeRawBufferPointer(rebasing: buffer[range]), path: path, offset: range.lowerBound - Frame.headerSize)
        state.apply(contentsOf: records)
      }
    }
    if FileHeader.version(of: bytes) < FileHeader.version { try FileHeader.upgrade(path) }
    let fd = try PosixFile.open(path, flags: O_WRONLY | O_APPEND)
    if validEnd < bytes.count {
      guard ftruncate(fd, off_t(validEnd)) == 0 else {
        Glibc.close(fd)
        throw PosixFile.error(path, "drop the unfinished write at the end of")
      }
      try PosixFile.sync(fd, path: path)
    }
    return (fd, validEnd, recovery)
  }

  private static func loadReplica(directory: String, newReplica: ReplicaID) throws -> ReplicaID {
    let path = directory + "/replica"
    if let bytes = try PosixFile.readAll(path) {
      let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let replica = try? ReplicaID(text) else {
        throw StoreError.corrupt(path: path, offset: 0, reason: "replica id '\(text)' is not valid")
      }
      return replica
    }
    try writeAtomically(Array((newReplica.rawValue + "\n").utf8), to: path, directory: directory)
    return newReplica
  }

  /// Write to a temporary file, fsync, rename over `path`, fsync the
  /// directory: readers see the old file or the new one, never a mix.
  static func writeAtomically(_ chunks: [UInt8]..., to path: String, directory: String) throws {
    let temporary = path + ".tmp"
    let fd = try PosixFile.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
    do {
      for chunk in chunks { try PosixFile.writeAll(fd, chunk, path: temporary) }
      try PosixFile.sync(fd, path: temporary)
    } catch {
      Glibc.close(fd)
      unlink(temporary)
      throw error
    }
    Glibc.close(fd)
    guard rename(temporary, path) == 0 else { throw PosixFile.error(path, "rename into place") }
    try PosixFile.syncDirectory(directory)
  }
}
