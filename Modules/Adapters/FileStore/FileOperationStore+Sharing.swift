#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Persistence

extension FileOperationStore {
  /// Runs `body` as the store's writer, with the lock held. Exclusive access
  /// already is the writer. Shared access takes the writer lock (waiting
  /// up to `lockWait` for another process to finish), reads what other
  /// writers added since this store last looked, lets `body` write, records
  /// the new length in the manifest and lets go.
  func writing<Result>(_ body: () throws -> Result) throws -> Result {
    if options.access == .exclusive {
      condition.lock()
      defer { condition.unlock() }
      guard !closed else { throw StoreError.closed }
      return try body()
    }
    writerGate.lock()
    defer { writerGate.unlock() }
    guard !condition.withLock({ closed }) else { throw StoreError.closed }
    do {
      try PosixFile.makeDirectory(directory)
    } catch {
      if [EROFS, EACCES, EPERM].contains(errno) { throw StoreError.readOnly(path: directory, reason: "the directory cannot be created or written") }
      throw error
    }
    let lock = try FileLock(path: directory + "/LOCK", wait: options.lockWait)
    defer { lock.release() }
    condition.lock()
    defer { condition.unlock() }
    try catchUp()
    defer {
      if logFD >= 0 { Glibc.close(logFD) }
      logFD = -1
    }
    let result = try body()
    // The write is durable already; a manifest that lags only means the
    // next writer records the length instead.
    if files.logSize != manifestLogSize { try? writeManifest() }
    return result
  }

  /// Brings this store up to what is on disk, holding the writer lock: the
  /// new end of the same log when nothing was compacted, else everything
  /// again. Opens the log for writing. Called with the lock held.
  private func catchUp() throws {
    let manifest = try StoreManifest.read(directory: directory)
    let path = logPath
    guard let manifest, manifest.generation == files.generation, manifest.log.file == files.logName,
      let size = try? PosixFile.size(path: path), size >= files.logSize
    else { return try reload() }
    if size > files.logSize {
      let bytes = try PosixFile.read(path, from: files.logSize)
      var applied = 0
      // Before the records, which may stop part way: a reader waits on
      // the lock held here for the state that goes with the new number.
      stateChanged()
      let scan = try StoreFiles.scanLog(bytes, from: 0, path: path) { records in
        core.apply(records)
        applied += records.count
      }
      if scan.validEnd < bytes.count {
        let offset = files.logSize + scan.validEnd
        recoveries.append(
          try StoreEvidence.keepTornTail(Array(bytes[scan.validEnd...]), of: files.logName, at: offset, directory: directory, now: clock.now()))
        guard truncate(path, off_t(offset)) == 0 else { throw PosixFile.error(path, "drop the unfinished write at the end of") }
      }
      files.logCRC = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[0..<scan.validEnd]), continuing: files.logCRC) }
      files.logSize += scan.validEnd
      files.logRecords += applied
    }
    logFD = try Self.openLog(path)
  }

  /// Reads the whole store again as its writer (it may have been created,
  /// compacted or repaired by another process since).
  private func reload() throws {
    let loaded = try StoreFiles.load(directory: directory, newReplica: newReplica, mode: .writer, now: clock.now())
    core = StoreCore(replica: loaded.replica, state: loaded.state)
    stateChanged()
    var kept = loaded
    kept.state = StoreState()
    files = kept
    manifestLogSize = loaded.logSize
    if loaded.recovery != .none { recoveries.append(loaded.recovery) }
    logFD = try Self.openLog(logPath)
  }
}
