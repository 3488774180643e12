#if canImport(Glibc)
  import Glibc
#endif
import Persistence

extension FileOperationStore {
  /// Folds the log into a fresh snapshot. Runs as the flush leader, so no
  /// other write touches the log meanwhile. Called with the lock held.
  func compactHoldingLeadership() throws {
    let records = core.state.records(since: nil)
    condition.unlock()
    defer { condition.lock() }
    var body: [UInt8] = FileHeader.bytes(kind: StoreFiles.snapshotKind)
    var start = 0
    while start < records.count {
      let end = min(records.count, start + options.snapshotFrameRecords)
      body.append(contentsOf: Frame.encode(RecordCodec.encode(Array(records[start..<end]))))
      start = end
    }
    try StoreFiles.writeAtomically(body, to: snapshotPath, directory: directory)
    // The snapshot now holds everything in the log; a crash before the
    // truncation only means the log is replayed over it once more.
    guard ftruncate(logFD, off_t(FileHeader.size)) == 0 else { throw PosixFile.error(logPath, "truncate") }
    try PosixFile.sync(logFD, path: logPath)
    condition.lock()
    snapshotSize = body.count
    logSize = FileHeader.size
    condition.unlock()
  }

  /// Folds the log into the snapshot now (`whilehere store compact`).
  public func compact() throws {
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { throw StoreError.closed }
    while flushing { condition.wait() }
    flushing = true
    defer {
      flushing = false
      condition.broadcast()
    }
    try compactHoldingLeadership()
  }
}
