import Domain
import Foundation
import Locking
import Persistence

/// The `nats:` store: a person's operation log on a JetStream stream (its
/// own subject, replicated as the stream is: R3 on a three-node cluster).
/// Each batch is one message, so it is stored whole or not at all, and a
/// write is acknowledged only after JetStream acknowledged the message.
/// Writers publish with the subject's expected last sequence: a writer
/// that lost a race reads what the other wrote, stamps again and retries,
/// so stamps stay strictly increasing. Reads answer from what this process
/// has read (a worker owns its people); writes and `operations(since:)`
/// first catch up.
public final class NATSOperationStore: CompactingStore {
  public let replica: ReplicaID
  public let location: NATSLocation
  private let clock: any WallClock
  struct Guarded {
    var core: StoreCore
    /// The stream sequence of the last message of this log applied.
    var sequence: UInt64
    var log: JetStreamLog?
    /// The last snapshot applied or written: its first and last message's
    /// stream sequence (0 when none).
    var snapshot: (first: UInt64, last: UInt64) = (0, 0)
    /// Log messages written or read since that snapshot.
    var sinceSnapshot = 0
  }
  let guarded: Locked<Guarded>
  /// A snapshot is written after this many log messages (`compact`).
  let compactEvery: Int
  /// A batch larger than this is refused (NATS's default max_payload is 1 MiB).
  static let largestMessage = 900_000

  public init(_ location: NATSLocation, newReplica: ReplicaID? = nil, clock: any WallClock = SystemClock(), compactEvery: Int = 1000) throws {
    self.location = location
    self.clock = clock
    self.compactEvery = max(1, compactEvery)
    let log: JetStreamLog
    do {
      log = try JetStreamLog(location)
      self.replica = try Self.replica(log, proposed: newReplica ?? ReplicaID.random())
    } catch let failure as JetStreamLog.Failure {
      throw StoreError.io(path: location.shown, operation: "open", reason: failure.description)
    }
    var state = Guarded(core: StoreCore(replica: replica), sequence: 0, log: log)
    try Self.catchUp(&state, location: location)
    guarded = Locked(state)
  }

  /// The log's replica id: written once as its meta message (the first
  /// writer's proposal wins), then read back by everyone.
  static func replica(_ log: JetStreamLog, proposed: ReplicaID) throws -> ReplicaID {
    let subject = log.location.metaSubject
    if try log.lastSequence(of: subject) == 0 {
      // Another opener may write it first; then its id is the one read back.
      _ = try? log.publish(Data(proposed.rawValue.utf8), on: subject, expected: 0, id: UUID().uuidString)
    }
    let last = try log.lastSequence(of: subject)
    guard last > 0, let first = try log.read(subject, after: last - 1, through: last).first, let text = String(data: first.1, encoding: .utf8),
      let replica = try? ReplicaID(text)
    else { throw StoreError.corrupt(path: log.location.shown, offset: 0, reason: "the log's replica id cannot be read") }
    return replica
  }

  @discardableResult
  public func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    guard !operations.isEmpty else {
      return try guarded.withLock { state in
        guard state.log != nil else { throw StoreError.closed }
        return []
      }
    }
    return try write { state in state.core.stamp(operations, now: self.clock.now()) }
  }

  /// Batches handed in while one message is on its way go together in the
  /// next (group commit): a worker applying many people's reports waits
  /// for one JetStream acknowledgement per group, not per report.
  public var appendsWithoutWaiting: Bool { true }

  /// Batches waiting for the next message, and whether a thread sends them.
  private let queued = Locked<(batches: [Queued], sending: Bool)>(([], false))
  private struct Queued {
    let operations: [StoreOperation]
    /// Asked of the state each time the group is made (again after a lost race).
    var superseded: (@Sendable (StoreState) -> Bool)? = nil
    let done: @Sendable (Result<[OperationRecord]?, any Error>) -> Void
  }
  /// At most this many batches in one message (each a few hundred bytes).
  static let groupLimit = 256

  /// Answered on the store's sending thread, in the order handed in; each
  /// batch's records are stamped when its group is sent.
  public func append(_ operations: [StoreOperation], then done: @escaping @Sendable (Result<[OperationRecord], any Error>) -> Void) {
    enqueue(Queued(operations: operations) { done($0.map { $0 ?? [] }) })
  }

  /// Decided on the log as it is when the batch's group is written: a
  /// write that lost a race reads the winner's records and asks again, so
  /// a worker still finishing a report after its partition moved on
  /// cannot put back a value the new owner already replaced.
  public func append(
    _ operations: [StoreOperation], unless superseded: @escaping @Sendable (StoreState) -> Bool,
    then done: @escaping @Sendable (Result<[OperationRecord]?, any Error>) -> Void
  ) {
    enqueue(Queued(operations: operations, superseded: superseded, done: done))
  }

  private func enqueue(_ batch: Queued) {
    let start = queued.withLock { queued -> Bool in
      queued.batches.append(batch)
      defer { queued.sending = true }
      return !queued.sending
    }
    guard start else { return }
    // A queue, not a thread per start: a worker appends one fix at a time.
    sender.async { [self] in send() }
  }

  private let sender = DispatchQueue(label: "whilehere.nats-store.sender")

  /// Sends what is queued, a group per message, until nothing is left.
  private func send() {
    while true {
      let group = queued.withLock { queued -> [Queued] in
        let group = Array(queued.batches.prefix(Self.groupLimit))
        queued.batches.removeFirst(group.count)
        if group.isEmpty { queued.sending = false }
        return group
      }
      guard !group.isEmpty else { return }
      // nil: that batch was superseded and is not written.
      var ranges: [Range<Int>?] = []
      let result = Result {
        try write { state in
          var records: [OperationRecord] = []
          ranges = []
          for batch in group {
            if let superseded = batch.superseded, superseded(state.core.state) {
              ranges.append(nil)
              continue
            }
            let stamped = state.core.stamp(batch.operations, now: self.clock.now())
            ranges.append(records.count..<records.count + stamped.count)
            records += stamped
          }
          return records
        }
      }
      // Outside the lock: what an answer does next may write to this store.
      for (index, batch) in group.enumerated() {
        batch.done(result.map { records in ranges.isEmpty ? [] : ranges[index].map { Array(records[$0]) } })
      }
    }
  }

  @discardableResult
  public func merge(_ records: [OperationRecord]) throws -> [OperationRecord] {
    // Merged records are independent of each other, so a big merge goes in
    // several messages (each still whole).
    var changed: [OperationRecord] = []
    var start = 0
    repeat {
      let chunk = Array(records[start..<min(records.count, start + 500)])
      changed += try write { state in state.core.newer(chunk) }
      start += 500
    } while start < records.count
    return changed
  }

  /// One write: decide the records on what is known, publish them as one
  /// message expecting the log's last sequence, and on a lost race catch
  /// up and decide again.
  private func write(_ make: (inout Guarded) -> [OperationRecord]) throws -> [OperationRecord] {
    try guarded.withLock { state in
      guard let log = state.log else { throw StoreError.closed }
      for _ in 0..<16 {
        let records = make(&state)
        guard !records.isEmpty else { return [] }
        let data = try JSONEncoder().encode(Batch(records: records))
        guard data.count <= Self.largestMessage else {
          throw StoreError.io(
            path: location.shown, operation: "write",
            reason: "a batch of \(records.count) records is \(data.count) bytes, more than one NATS message holds (\(Self.largestMessage))")
        }
        do {
          // A fresh id per attempt: JetStream would answer a repeated id with the first message's ack, storing nothing.
          let expected = state.sequence
          let sequence = try log.publish(data, on: location.logSubject, expected: expected, id: UUID().uuidString)
          state.core.apply(records)
          if log.replicated {
            Self.readBetween(&state, log: log, after: expected, written: sequence, location: location)
          } else {
            // One server checks the expected end as it stores: nothing can lie between.
            state.sequence = sequence
          }
          state.sinceSnapshot += 1
          if state.sinceSnapshot >= compactEvery {
            // Written, so its answer stands when the snapshot cannot be made
            // now; tried again after as many messages, not at every write.
            state.sinceSnapshot = 0
            try? Self.snapshot(&state, location: location)
          }
          return records
        } catch let failure as JetStreamLog.Failure where failure.isWrongLastSequence {
          try Self.catchUp(&state, location: location)
        } catch let failure as JetStreamLog.Failure {
          throw StoreError.io(path: location.shown, operation: "write", reason: "not acknowledged by JetStream: \(failure)")
        }
      }
      throw StoreError.io(path: location.shown, operation: "write", reason: "other writers kept winning the race; try again")
    }
  }

  /// After a write acknowledged at `written` that expected the log to end
  /// at `after`: reads what lies between before counting the log as read
  /// through it. nats-server 2.9 checks a clustered stream's expected
  /// last sequence before proposing, not within the vote, so two writers
  /// expecting the same end can both be stored (nats-server #4320); the
  /// check is not kept across a leader change either. A writer that took
  /// its own sequence as read through would never read the other's
  /// message, and its next snapshot, purging below, would drop it. A
  /// snapshot written meanwhile may have purged some of them: it holds
  /// them. If this cannot be read now, the log counts as read through
  /// `after` only, and the next write or refresh catches up.
  static func readBetween(_ state: inout Guarded, log: JetStreamLog, after: UInt64, written: UInt64, location: NATSLocation) {
    do {
      let decoder = JSONDecoder()
      for (sequence, data) in try log.read(location.logSubject, after: after, through: written) where sequence < written {
        guard let batch = try? decoder.decodeOutside(Batch.self, from: data) else { return }
        state.core.apply(batch.records)
      }
      state.sequence = written
      try applySnapshot(&state, log: log, location: location)
    } catch {
      state.sequence = after
    }
  }

  struct Batch: Codable {
    let records: [OperationRecord]
  }

  /// Applies the log's messages after the last one applied, and any
  /// snapshot written since: before them (an open starts from the latest),
  /// and after them again, since a snapshot written meanwhile may have
  /// purged messages this read skipped. Records merge by their stamps, so
  /// applying one twice or out of order leaves the same state.
  static func catchUp(_ state: inout Guarded, location: NATSLocation) throws {
    guard let log = state.log else { throw StoreError.closed }
    do {
      let last = try log.lastSequence(of: location.logSubject)
      guard last > state.sequence else { return }
      try applySnapshot(&state, log: log, location: location)
      let decoder = JSONDecoder()
      for (sequence, data) in try log.read(location.logSubject, after: state.sequence, through: last) {
        guard let batch = try? decoder.decodeOutside(Batch.self, from: data) else {
          throw StoreError.corrupt(path: location.shown, offset: sequence, reason: "message \(sequence) is not a batch of records")
        }
        state.core.apply(batch.records)
        state.sequence = sequence
        state.sinceSnapshot += 1
      }
      try applySnapshot(&state, log: log, location: location)
    } catch let failure as JetStreamLog.Failure {
      throw StoreError.io(path: location.shown, operation: "read", reason: failure.description)
    }
  }

  public func state() -> StoreState { guarded.withLock { $0.core.state } }

  /// Reads the batches other writers published since this one last read.
  public func refresh() throws {
    try guarded.withLock { state in try Self.catchUp(&state, location: location) }
  }

  public func operations(since: HLCTimestamp?) throws -> [OperationRecord] {
    try guarded.withLock { state in
      try Self.catchUp(&state, location: location)
      return state.core.state.records(since: since)
    }
  }

  public func describe() -> StoreDescription {
    let (state, sequence, snapshot, since) = guarded.withLock { ($0.core.state, $0.sequence, $0.snapshot, $0.sinceSnapshot) }
    return StoreDescription(
      kind: "nats", location: location.shown,
      details: [
        ("replica", replica.rawValue), ("stream", location.stream), ("subject", location.logSubject), ("replicas", String(location.replicas)),
        ("last sequence", String(sequence)), ("snapshot", snapshot.last == 0 ? "none" : "messages \(snapshot.first)-\(snapshot.last)"), ("log", (since == 1 ? "1 message" : "\(since) messages") + " since the snapshot"), ("tasks", String(state.tasks.count)), ("places", String(state.places.count)),
      ])
  }

  public func close() {
    guarded.withLock { state in
      state.log?.close()
      state.log = nil
    }
  }
}
