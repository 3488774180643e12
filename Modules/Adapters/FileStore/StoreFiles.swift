#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Foundation
import Persistence

/// Reading a store directory into memory: replica id, manifest, snapshot,
/// then the log replayed over it. Everything the manifest names is checked
/// against it first; a missing or shortened part throws
/// `StoreError.incomplete` before anything is written. A writer then repairs
/// what a crash can leave (a torn log tail, kept as evidence; leftovers of an
/// interrupted compaction) and writes the manifest; a reader changes nothing.
struct StoreFiles {
  enum Mode { case reader, writer }

  var replica: ReplicaID
  var state: StoreState
  var generation: Int
  var logName: String
  /// Valid bytes of the log (a reader stops before a torn tail).
  var logSize: Int
  var logCRC: UInt32
  var logRecords: Int
  var snapshot: StoreManifest.Part?
  var recovery: FileRecovery

  static let logKind = "WHLOG"
  static let snapshotKind = "WHSNP"

  var manifest: StoreManifest {
    StoreManifest(
      generation: generation, snapshot: snapshot,
      log: StoreManifest.Part(file: logName, bytes: logSize, crc: logCRC, records: logRecords))
  }

  static func load(directory: String, newReplica: ReplicaID, mode: Mode, now: Date) throws -> StoreFiles {
    // A reader racing a compaction can find the manifest naming files that
    // were just replaced; it reads the newer manifest and tries again.
    var attempt = 0
    while true {
      attempt += 1
      let manifest = try StoreManifest.read(directory: directory)
      let parts = try Parts.read(directory: directory, manifest: manifest)
      if mode == .reader, attempt < 5, parts.missing, try StoreManifest.read(directory: directory) != manifest { continue }
      return try load(directory: directory, newReplica: newReplica, mode: mode, manifest: manifest, parts: parts, now: now)
    }
  }

  /// The bytes of the parts a manifest names (or, without one, of a store
  /// written before manifests: `snapshot` and `log`).
  struct Parts {
    var snapshot: [UInt8]?
    var log: [UInt8]?
    var replica: [UInt8]?
    var missing: Bool

    static func read(directory: String, manifest: StoreManifest?) throws -> Parts {
      let snapshotName = manifest == nil ? "snapshot" : manifest?.snapshot?.file
      let logName = manifest?.log.file ?? "log"
      let snapshot = try snapshotName.flatMap { try PosixFile.readAll(directory + "/" + $0) }
      let log = try PosixFile.readAll(directory + "/" + logName)
      let replica = try PosixFile.readAll(directory + "/replica")
      return Parts(
        snapshot: snapshot, log: log, replica: replica,
        missing: log == nil || (manifest?.snapshot != nil && snapshot == nil) || (manifest != nil && replica == nil))
    }
  }

  private static func load(
    directory: String, newReplica: ReplicaID, mode: Mode, manifest: StoreManifest?, parts: Parts, now: Date
  ) throws -> StoreFiles {
    try StoreLoss.checkVersions(directory: directory, manifest, parts)
    if let manifest {
      let losses = StoreLoss.check(manifest, parts)
      guard losses.isEmpty else { throw StoreError.incomplete(directory: directory, losses: losses) }
    } else {
      let losses = try StoreLoss.checkWithoutManifest(directory: directory, parts)
      guard losses.isEmpty else { throw StoreError.incomplete(directory: directory, losses: losses) }
    }
    let fresh = manifest == nil && parts.log.map { $0.count <= FileHeader.size } ?? true && parts.snapshot == nil
    let replica: ReplicaID
    if let bytes = parts.replica {
      let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      guard let parsed = try? ReplicaID(text) else {
        throw StoreError.corrupt(path: directory + "/replica", offset: 0, reason: "replica id '\(text)' is not valid")
      }
      replica = parsed
    } else {
      replica = newReplica
    }
    if fresh {
      guard mode == .writer else {
        return StoreFiles(
          replica: replica, state: StoreState(), generation: 1, logName: StoreManifest.logName(1), logSize: FileHeader.size,
          logCRC: CRC32.checksum(FileHeader.bytes(kind: logKind)), logRecords: 0, snapshot: nil, recovery: .none)
      }
      return try create(directory: directory, replica: replica, writeReplica: parts.replica == nil)
    }

    var state = StoreState()
    let generation = manifest?.generation ?? 0
    var snapshotPart = manifest?.snapshot
    if let bytes = parts.snapshot {
      let name = manifest?.snapshot?.file ?? "snapshot"
      if let records = manifest?.snapshot?.records { state.reserveCapacity(records) }
      // Applied frame by frame: an array of every record first doubled the
      // memory an open takes and copied each record twice more.
      var records = 0
      try decodeSnapshot(bytes, path: directory + "/" + name) { frame in
        records += frame.count
        state.apply(contentsOf: frame)
      }
      if manifest == nil {
        snapshotPart = StoreManifest.Part(
          file: name, bytes: bytes.count, crc: CRC32.checksum(bytes), records: records, tasks: state.tasks.count,
          places: state.places.count, lists: state.lists.count)
      }
    }
    let logName = manifest?.log.file ?? "log"
    let logPath = directory + "/" + logName
    let log = parts.log ?? []
    let scan = try scanLog(log, path: logPath) { state.apply(contentsOf: $0) }
    if let manifest {
      let losses = StoreLoss.checkContents(manifest, parts)
      guard losses.isEmpty else { throw StoreError.incomplete(directory: directory, losses: losses) }
    }
    var files = StoreFiles(
      replica: replica, state: state, generation: generation, logName: logName, logSize: scan.validEnd,
      logCRC: log.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<scan.validEnd])) },
      logRecords: scan.records, snapshot: snapshotPart, recovery: .none)
    guard mode == .writer else { return files }

    if scan.validEnd < log.count {
      files.recovery = try StoreEvidence.keepTornTail(
        Array(log[scan.validEnd...]), of: logName, at: scan.validEnd, directory: directory, now: now)
      let fd = try PosixFile.open(logPath, flags: O_WRONLY)
      defer { Glibc.close(fd) }
      guard ftruncate(fd, off_t(scan.validEnd)) == 0 else { throw PosixFile.error(logPath, "drop the unfinished write at the end of") }
      try PosixFile.sync(fd, path: logPath)
    }
    if manifest == nil {
      // A store from before manifests: mark its files with this version, so
      // an older build refuses them instead of writing without a manifest.
      if FileHeader.version(of: log) < FileHeader.version { try FileHeader.upgrade(logPath) }
      files.logCRC = CRC32.checksum(FileHeader.bytes(kind: logKind) + Array(log[FileHeader.size..<scan.validEnd]))
      if let bytes = parts.snapshot, FileHeader.version(of: bytes) < FileHeader.version {
        try FileHeader.upgrade(directory + "/snapshot")
        let upgraded = FileHeader.bytes(kind: snapshotKind) + Array(bytes[FileHeader.size...])
        files.snapshot?.crc = CRC32.checksum(upgraded)
      }
    }
    try files.manifest.write(directory: directory)
    StoreEvidence.removeLeftovers(directory: directory, keeping: files.manifest)
    return files
  }

  /// A new store: replica id, an empty first-generation log, the manifest.
  private static func create(directory: String, replica: ReplicaID, writeReplica: Bool) throws -> StoreFiles {
    if writeReplica {
      try writeAtomically(Array((replica.rawValue + "\n").utf8), to: directory + "/replica", directory: directory)
    }
    let logName = StoreManifest.logName(1)
    let header = FileHeader.bytes(kind: logKind)
    try writeAtomically(header, to: directory + "/" + logName, directory: directory)
    let files = StoreFiles(
      replica: replica, state: StoreState(), generation: 1, logName: logName, logSize: header.count,
      logCRC: CRC32.checksum(header), logRecords: 0, snapshot: nil, recovery: .none)
    try files.manifest.write(directory: directory)
    StoreEvidence.removeLeftovers(directory: directory, keeping: files.manifest)
    return files
  }

  static func decodeSnapshot(_ bytes: [UInt8], path: String) throws -> [OperationRecord] {
    var records: [OperationRecord] = []
    try decodeSnapshot(bytes, path: path) { records += $0 }
    return records
  }

  /// The snapshot's records, a frame at a time; every frame is checked
  /// before the first is handed over.
  static func decodeSnapshot(_ bytes: [UInt8], path: String, each: ([OperationRecord]) throws -> Void) throws {
    try bytes.withUnsafeBytes { buffer in
      try FileHeader.check(buffer, kind: snapshotKind, path: path)
      let scan = FrameScan(buffer, from: FileHeader.size)
      switch scan.outcome {
      case .clean: break
      case .tornTail(let offset):
        // Snapshots appear by rename only when complete, so any bad bytes are damage.
        throw StoreError.corrupt(path: path, offset: UInt64(offset), reason: "snapshot ends in an incomplete record")
      case .damaged(let offset, let reason):
        throw StoreError.corrupt(path: path, offset: UInt64(offset), reason: reason)
      }
      for range in scan.payloads {
        try each(
          try RecordCodec.decode(UnsafeRawBufferPointer(rebasing: buffer[range]), path: path, offset: range.lowerBound - Frame.headerSize))
      }
    }
  }

  struct LogScan {
    var validEnd: Int
    var records: Int
  }

  /// Applies the log's frames from `start`; a torn tail ends the scan, damage
  /// with valid frames after it throws.
  static func scanLog(
    _ bytes: [UInt8], from start: Int = FileHeader.size, path: String, apply: ([OperationRecord]) -> Void
  ) throws -> LogScan {
    guard !bytes.isEmpty else { return LogScan(validEnd: 0, records: 0) }
    return try bytes.withUnsafeBytes { buffer in
      if start == FileHeader.size { try FileHeader.check(buffer, kind: logKind, path: path) }
      let scan = FrameScan(buffer, from: start)
      var validEnd = bytes.count
      switch scan.outcome {
      case .clean: break
      case .tornTail(let offset): validEnd = offset
      case .damaged(let offset, let reason): throw StoreError.corrupt(path: path, offset: UInt64(offset), reason: reason)
      }
      var count = 0
      for range in scan.payloads {
        let records = try RecordCodec.decode(
          UnsafeRawBufferPointer(rebasing: buffer[range]), path: path, offset: range.lowerBound - Frame.headerSize)
        count += records.count
        apply(records)
      }
      return LogScan(validEnd: validEnd, records: count)
    }
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
