#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Foundation
import Persistence

extension FileOperationStore {
  /// Folds the log into the next generation: a new snapshot and an empty
  /// log are written beside the old pair, the manifest is switched to them,
  /// and only then is the old pair removed, so a crash at any point leaves
  /// one complete pair named by the manifest and a reader that opened the
  /// old pair still reads it whole. Runs as the flush leader, so no other
  /// write touches the log meanwhile: for shared stores, whose writers in
  /// other processes take the file lock this write holds. Called with the
  /// lock held.
  func compactHoldingLeadership() throws {
    let state = core.state
    let next = files.generation + 1
    condition.unlock()
    defer { condition.lock() }
    let snapshot = try Self.writeSnapshot(of: state, generation: next, directory: directory, frameRecords: options.snapshotFrameRecords)
    let logName = StoreManifest.logName(next)
    let header = FileHeader.bytes(kind: StoreFiles.logKind)
    let manifest = StoreManifest(
      generation: next, snapshot: snapshot, log: StoreManifest.Part(file: logName, bytes: header.count, crc: CRC32.checksum(header), records: 0))
    let fd: Int32
    let certain: Bool
    do {
      try StoreFiles.writeAtomically(header, to: directory + "/" + logName, directory: directory)
      fd = try Self.openLog(directory + "/" + logName)
      do { certain = try manifest.switchStore(directory: directory) } catch {
        Glibc.close(fd)
        throw error
      }
    } catch {
      // The manifest still names the old pair, which is whole.
      Self.removeGeneration(next, directory: directory)
      throw error
    }
    condition.lock()
    switchTo(manifest, log: fd)
    condition.unlock()
    if certain { StoreEvidence.removeLeftovers(directory: directory, keeping: manifest) }
  }

  /// Where a fold alongside writes starts: the state as of `offset` bytes
  /// of `logName`, which held `records` records then.
  struct FoldStart {
    let state: StoreState
    let logName: String
    let offset: Int
    let records: Int
    let generation: Int
  }

  enum FoldStep: Sendable {
    /// The new snapshot is durable; the log's bytes since the start are not read yet.
    case snapshotWritten
    /// The new log holds what was durable after the snapshot; the fold is about to take the log.
    case logCopied
  }

  /// Marks a fold as running and takes what it starts from. Called with the
  /// lock held, in the same hold as the state's last change, so the state
  /// is exactly what the log holds up to `offset`.
  func beginFold() -> FoldStart {
    compacting = true
    return FoldStart(state: core.state, logName: files.logName, offset: files.logSize, records: files.logRecords, generation: files.generation + 1)
  }

  /// Folds an exclusive store's log while writes go on: the snapshot of the
  /// state at the fold's start and a new log holding what the old one got
  /// since are written without holding the log; then, as flush leader,
  /// only the last few writes are copied, the new log synced and the
  /// manifest switched. The fixes that arrive meanwhile wait for three
  /// syncs instead of the whole fold (at 15,000 daemon users its p99 went
  /// past 10 ms when they waited for it). The same crash safety as
  /// `compactHoldingLeadership`: until the manifest names the new pair it
  /// names the old one, whole and still written. Called without the lock,
  /// after `beginFold`.
  func fold(from start: FoldStart) throws {
    var leading = false
    defer {
      condition.lock()
      if leading { flushing = false }
      compacting = false
      condition.broadcast()
      condition.unlock()
    }
    let next = start.generation
    let oldLog = directory + "/" + start.logName
    let logName = StoreManifest.logName(next)
    let newLog = directory + "/" + logName
    do {
      let snapshot = try Self.writeSnapshot(of: start.state, generation: next, directory: directory, frameRecords: options.snapshotFrameRecords)
      let step = condition.withLock { foldStep }
      step?(.snapshotWritten)
      // Durable already: only the bytes up to `files.logSize` have been acknowledged.
      let copied = condition.withLock { files.logSize }
      let header = FileHeader.bytes(kind: StoreFiles.logKind)
      let bulk = try PosixFile.read(oldLog, from: start.offset, to: copied)
      try StoreFiles.writeAtomically(header, bulk, to: newLog, directory: directory)
      var crc = CRC32.checksum(bulk, continuing: CRC32.checksum(header))
      let fd = try Self.openLog(newLog)
      step?(.logCopied)
      condition.lock()
      while flushing { condition.wait() }
      flushing = true
      leading = true
      let end = files.logSize
      let records = files.logRecords - start.records
      condition.unlock()
      do {
        let tail = try PosixFile.read(oldLog, from: copied, to: end)
        if !tail.isEmpty {
          try PosixFile.writeAll(fd, tail, path: newLog)
          try PosixFile.syncData(fd, path: newLog)
          crc = CRC32.checksum(tail, continuing: crc)
        }
        let manifest = StoreManifest(
          generation: next, snapshot: snapshot,
          log: StoreManifest.Part(file: logName, bytes: header.count + end - start.offset, crc: crc, records: records))
        let certain = try manifest.switchStore(directory: directory)
        condition.lock()
        switchTo(manifest, log: fd)
        // Writers go on into the new log while the old pair is removed.
        flushing = false
        leading = false
        condition.broadcast()
        condition.unlock()
        if certain { StoreEvidence.removeLeftovers(directory: directory, keeping: manifest) }
      } catch {
        Glibc.close(fd)
        throw error
      }
    } catch {
      Self.removeGeneration(next, directory: directory)
      throw error
    }
  }

  /// Makes `manifest`'s generation the store's, writing to `fd` from now
  /// on (or closing it when the store opens its log per batch). Called with
  /// the lock held, as flush leader.
  private func switchTo(_ manifest: StoreManifest, log fd: Int32) {
    if logFD >= 0 {
      Glibc.close(logFD)
      logFD = fd
    } else {
      Glibc.close(fd)
    }
    files.generation = manifest.generation
    files.logName = manifest.log.file
    files.logSize = manifest.log.bytes
    files.logCRC = manifest.log.crc
    files.logRecords = manifest.log.records
    files.snapshot = manifest.snapshot
    manifestLogSize = manifest.log.bytes
  }

  /// Writes the snapshot of `state` as generation `generation` (and the
  /// keys beside it, a speed-up readers do without) and says what the
  /// manifest records of it.
  private static func writeSnapshot(of state: StoreState, generation: Int, directory: String, frameRecords: Int) throws -> StoreManifest.Part {
    let records = state.records(since: nil)
    var body: [UInt8] = FileHeader.bytes(kind: StoreFiles.snapshotKind)
    var frames: [(payloadStart: Int, length: Int, records: [OperationRecord], offsets: [Int])] = []
    var start = 0
    while start < records.count {
      let end = min(records.count, start + frameRecords)
      let batch = Array(records[start..<end])
      var offsets: [Int] = []
      let payload = RecordCodec.encode(batch, offsets: &offsets)
      frames.append((body.count + Frame.headerSize, payload.count, batch, offsets))
      body.append(contentsOf: Frame.encode(payload))
      start = end
    }
    let snapshotName = StoreManifest.snapshotName(generation)
    let snapshotCRC = CRC32.checksum(body)
    let keys = SnapshotKeys.encode(snapshotBytes: body.count, snapshotCRC: snapshotCRC, frames: frames, state: state)
    try StoreFiles.writeAtomically(body, to: directory + "/" + snapshotName, directory: directory)
    try? StoreFiles.writeAtomically(keys, to: directory + "/" + SnapshotKeys.fileName(generation), directory: directory)
    return StoreManifest.Part(
      file: snapshotName, bytes: body.count, crc: snapshotCRC, records: records.count, tasks: state.tasks.count,
      places: state.places.count, lists: state.lists.count,
      latest: records.reduce(state.latest) { latest, record in latest.map { max($0, record.stamp) } ?? record.stamp })
  }

  /// Removes what a fold that failed wrote of `generation`; the manifest
  /// still names the old pair, which is whole.
  private static func removeGeneration(_ generation: Int, directory: String) {
    for name in [StoreManifest.snapshotName(generation), SnapshotKeys.fileName(generation), StoreManifest.logName(generation)] {
      unlink(directory + "/" + name)
      unlink(directory + "/" + name + ".tmp")
    }
  }

  /// Folds the log into the snapshot now (`whilehere store compact`, the
  /// daemon's retention sweep) and returns once it is done. An exclusive
  /// store goes on taking writes meanwhile.
  public func compact() throws {
    if options.access == .exclusive {
      condition.lock()
      while compacting { condition.wait() }
      guard !closed else {
        condition.unlock()
        throw StoreError.closed
      }
      let start = beginFold()
      condition.unlock()
      return try fold(from: start)
    }
    try writing {
      while flushing { condition.wait() }
      flushing = true
      defer {
        flushing = false
        condition.broadcast()
      }
      try compactHoldingLeadership()
    }
  }
}
