#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Persistence

extension FileOperationStore {
  /// Folds the log into the next generation: a new snapshot and an empty
  /// log are written beside the old pair, the manifest is switched to them,
  /// and only then is the old pair removed, so a crash at any point leaves
  /// one complete pair named by the manifest and a reader that opened the
  /// old pair still reads it whole. Runs as the flush leader, so no other
  /// write touches the log meanwhile. Called with the lock held.
  func compactHoldingLeadership() throws {
    let state = core.state
    let records = state.records(since: nil)
    let next = files.generation + 1
    condition.unlock()
    defer { condition.lock() }
    var body: [UInt8] = FileHeader.bytes(kind: StoreFiles.snapshotKind)
    var frames: [(payloadStart: Int, length: Int, records: [OperationRecord], offsets: [Int])] = []
    var start = 0
    while start < records.count {
      let end = min(records.count, start + options.snapshotFrameRecords)
      let batch = Array(records[start..<end])
      var offsets: [Int] = []
      let payload = RecordCodec.encode(batch, offsets: &offsets)
      frames.append((body.count + Frame.headerSize, payload.count, batch, offsets))
      body.append(contentsOf: Frame.encode(payload))
      start = end
    }
    let snapshotName = StoreManifest.snapshotName(next)
    // Only a speed-up for readers (`FileStoreReader`): a compaction that cannot write it goes on without.
    let keysName = SnapshotKeys.fileName(next)
    let snapshotCRC = CRC32.checksum(body)
    let keys = SnapshotKeys.encode(snapshotBytes: body.count, snapshotCRC: snapshotCRC, frames: frames, state: state)
    let logName = StoreManifest.logName(next)
    let header = FileHeader.bytes(kind: StoreFiles.logKind)
    let manifest = StoreManifest(
      generation: next,
      snapshot: StoreManifest.Part(
        file: snapshotName, bytes: body.count, crc: snapshotCRC, records: records.count, tasks: state.tasks.count,
        places: state.places.count, lists: state.lists.count, latest: records.reduce(state.latest) { latest, record in latest.map { max($0, record.stamp) } ?? record.stamp }),
      log: StoreManifest.Part(file: logName, bytes: header.count, crc: CRC32.checksum(header), records: 0))
    let fd: Int32
    do {
      try StoreFiles.writeAtomically(body, to: directory + "/" + snapshotName, directory: directory)
      try? StoreFiles.writeAtomically(keys, to: directory + "/" + keysName, directory: directory)
      try StoreFiles.writeAtomically(header, to: directory + "/" + logName, directory: directory)
      fd = try Self.openLog(directory + "/" + logName)
      do { try manifest.write(directory: directory) } catch {
        Glibc.close(fd)
        throw error
      }
    } catch {
      // The manifest still names the old pair, which is whole.
      unlink(directory + "/" + snapshotName)
      unlink(directory + "/" + keysName)
      unlink(directory + "/" + logName)
      throw error
    }
    condition.lock()
    // A store that holds its log (or a shared store in the middle of a write) holds the new one.
    if logFD >= 0 {
      Glibc.close(logFD)
      logFD = fd
    } else {
      Glibc.close(fd)
    }
    files.generation = next
    files.logName = logName
    files.logSize = header.count
    files.logCRC = manifest.log.crc
    files.logRecords = 0
    files.snapshot = manifest.snapshot
    manifestLogSize = header.count
    condition.unlock()
    StoreEvidence.removeLeftovers(directory: directory, keeping: manifest)
  }

  /// Folds the log into the snapshot now (`whilehere store compact`).
  public func compact() throws {
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
