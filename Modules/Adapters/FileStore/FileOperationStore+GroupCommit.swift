#if canImport(Glibc)
  import Glibc
#endif
import Domain
import Foundation
import Locking
import Persistence

/// The group commit: writers queue batches, one flusher thread of the
/// store's own writes all that is queued with one fdatasync and answers
/// each in order.
extension FileOperationStore {
  /// Enqueues a batch and returns once it is durable and applied (or
  /// throws why not). Called with the lock held.
  func commit(_ records: [OperationRecord]) throws {
    let outcome = OneShot<(any Error)?>()
    enqueue(records) { outcome.put($0) }
    if flusher == ObjectIdentifier(Thread.current) {
      // A write from inside a `then` answer, on the flusher itself: nobody
      // else would flush it, so this thread does, now. The answers of the
      // batches it flushes with this one wait for the answers before them.
      while flushing { condition.wait() }
      if let error = flushPending() { throw error }
      return
    }
    condition.unlock()
    let failure = outcome.take()
    condition.lock()
    if let failure { throw failure }
  }

  /// Queues a batch for the flusher, starting it if none runs. A flusher
  /// thread of the store's own writes everything queued with one fdatasync,
  /// again while writers keep coming, and lingers briefly before it ends:
  /// writers only wait for their batch (or not at all, `append(_:then:)`),
  /// and none of them leads a flush. Called with the lock held.
  func enqueue(_ records: [OperationRecord], done: @escaping @Sendable ((any Error)?) -> Void) {
    pending.append(PendingBatch(frame: Frame.encode(RecordCodec.encode(records)), records: records, done: done))
    if draining {
      condition.broadcast()
    } else {
      draining = true
      let flusher = Thread { [self] in drain() }
      flusher.name = "store flusher"
      flusher.start()
    }
  }

  /// How long the flusher waits for more writes before it ends.
  static let flusherLinger: TimeInterval = 0.05

  /// The flusher: flushes while anything is queued (waiting for a
  /// compaction holding the log), lingers, then ends.
  func drain() {
    condition.lock()
    flusher = ObjectIdentifier(Thread.current)
    defer {
      flusher = nil
      condition.unlock()
    }
    while true {
      while flushing { condition.wait() }
      if pending.isEmpty {
        let woken = condition.wait(until: Date().addingTimeInterval(Self.flusherLinger))
        guard !closed, woken || !pending.isEmpty else { break }
        continue
      }
      flushPending()
    }
    draining = false
  }

  @discardableResult
  func flushPending() -> (any Error)? {
    flushing = true
    let batch = pending
    pending = []
    let start = files.logSize
    let held = logFD
    let path = logPath
    condition.unlock()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(batch.reduce(0) { $0 + $1.frame.count })
    for item in batch { bytes.append(contentsOf: item.frame) }
    // Without a held log (`keepLogOpen` off), each batch opens it.
    var fd = held
    let result = Result {
      if fd < 0 { fd = try Self.openLog(path) }
      try PosixFile.writeAll(fd, bytes, path: path)
      try PosixFile.syncData(fd, path: path)
    }
    if case .failure = result, fd >= 0 {
      // Leave no partial frame behind for the next batch to follow.
      _ = ftruncate(fd, off_t(start))
    }
    if held < 0, fd >= 0 { Glibc.close(fd) }
    let crc = CRC32.checksum(bytes, continuing: files.logCRC)
    condition.lock()
    var failure: (any Error)?
    switch result {
    case .success:
      for item in batch {
        core.apply(item.records)
        files.logRecords += item.records.count
      }
      stateChanged()
      files.logSize += bytes.count
      files.logCRC = crc
      syncs += 1
    case .failure(let error):
      failure = error
    }
    if case .success = result {
      if options.isDueForCompaction(logSize: files.logSize, snapshotSize: files.snapshot?.bytes ?? 0), !compacting {
        if options.access == .exclusive {
          // Alongside the writes that keep coming, which it holds up only to switch logs.
          let start = beginFold()
          let folder = Thread { [self] in try? fold(from: start) }
          folder.name = "store fold"
          folder.start()
        } else {
          // Still the leader: nobody writes to the log while it is folded away.
          try? compactHoldingLeadership()
        }
      } else if options.access == .exclusive, files.logSize - manifestLogSize >= options.manifestEveryBytes {
        try? writeManifest()
      }
    }
    flushing = false
    condition.broadcast()
    unanswered.append(contentsOf: batch.map { ($0.done, failure) })
    // Answered in the order handed in, without the lock (what a writer does
    // next may need the store), and only by the outermost flush when one
    // runs inside an answer.
    guard !answering else { return failure }
    answering = true
    while !unanswered.isEmpty {
      let (done, failed) = unanswered.removeFirst()
      condition.unlock()
      done(failed)
      condition.lock()
    }
    answering = false
    return failure
  }
}
