import Domain
import Foundation
import Persistence

/// Snapshots of a `nats:` log, on the log's own stream (subject
/// `wh.STREAM.snap.LOG`): the state's records as of a log message, in as
/// many messages as it takes (each under NATS's message size), written
/// whole before anything is purged. Then the log's messages before that
/// one are purged, so an open reads the snapshot and what came after it,
/// not every message since the first; the message a snapshot was taken at
/// stays, since writers publish expecting the log's last sequence. The
/// snapshot before the latest is kept until the next one, so a reader
/// part way through reading it is not left without one.
extension NATSOperationStore {
  /// One message of a snapshot.
  struct SnapshotPart: Codable {
    /// The same for every part of one snapshot.
    let id: String
    /// Its place among the snapshot's parts, from 0; the last says so.
    let part: Int
    let last: Bool
    /// The stream sequence of the last log message the records include.
    let through: UInt64
    let records: [OperationRecord]
  }

  /// Writes a snapshot of the state as of the log's last message and purges
  /// the log before that message. The state is unchanged.
  public func compact() throws {
    try guarded.withLock { state in
      try Self.catchUp(&state, location: location)
      try Self.snapshot(&state, location: location)
    }
  }

  static func snapshot(_ state: inout Guarded, location: NATSLocation) throws {
    guard let log = state.log else { throw StoreError.closed }
    let through = state.sequence
    guard through > 0 else { return }
    let messages = try encodedParts(of: state.core.state.records(since: nil), id: UUID().uuidString, through: through)
    do {
      var written: (first: UInt64, last: UInt64) = (0, 0)
      for (index, data) in messages.enumerated() {
        let sequence = try log.publish(data, on: location.snapshotSubject, expected: nil, id: UUID().uuidString)
        written = (index == 0 ? sequence : written.first, sequence)
      }
      try log.purge(location.logSubject, below: through)
      if state.snapshot.first > 0 { try log.purge(location.snapshotSubject, below: state.snapshot.first) }
      state.snapshot = written
      state.sinceSnapshot = 0
    } catch let failure as JetStreamLog.Failure {
      throw StoreError.io(path: location.shown, operation: "write a snapshot", reason: failure.description)
    }
  }

  /// The snapshot's messages, each under one message's size: the records
  /// halved until each part fits, every part encoded once it does (parts
  /// come off the stack in order, so each knows its place and whether it
  /// is the last when it is encoded).
  static func encodedParts(of records: [OperationRecord], id: String, through: UInt64) throws -> [Data] {
    var messages: [Data] = []
    var pending = [records[...]]
    while let group = pending.popLast() {
      let data = try JSONEncoder().encode(
        SnapshotPart(id: id, part: messages.count, last: pending.isEmpty, through: through, records: Array(group)))
      if data.count <= largestMessage || group.count <= 1 {
        messages.append(data)
      } else {
        let middle = group.startIndex + group.count / 2
        pending.append(group[middle...])
        pending.append(group[..<middle])
      }
    }
    return messages
  }

  /// Applies the latest whole snapshot written after the one last applied,
  /// if any. One still being written (or cut short by a writer that died)
  /// is passed over, and read once it is whole.
  static func applySnapshot(_ state: inout Guarded, log: JetStreamLog, location: NATSLocation) throws {
    let last = try log.lastSequence(of: location.snapshotSubject)
    guard last > state.snapshot.last else { return }
    // By id, not by order: two stores compacting at once interleave their parts.
    var groups: [String: (first: UInt64, last: UInt64, parts: [SnapshotPart])] = [:]
    let decoder = JSONDecoder()
    for (sequence, data) in try log.read(location.snapshotSubject, after: state.snapshot.last, through: last) {
      guard let part = try? decoder.decodeOutside(SnapshotPart.self, from: data) else {
        throw StoreError.corrupt(path: location.shown, offset: sequence, reason: "message \(sequence) is not part of a snapshot")
      }
      groups[part.id, default: (sequence, sequence, [])].parts.append(part)
      groups[part.id]?.last = sequence
    }
    let wholes = groups.values.filter { group in
      group.parts.map(\.part) == Array(0..<group.parts.count) && group.parts.last?.last == true
    }
    guard let whole = wholes.max(by: { ($0.parts[0].through, $0.last) < ($1.parts[0].through, $1.last) }) else { return }
    state.core.reserveCapacity(whole.parts.reduce(0) { $0 + $1.records.count })
    for part in whole.parts { state.core.apply(part.records) }
    state.sequence = max(state.sequence, whole.parts[0].through)
    state.snapshot = (whole.first, whole.last)
    state.sinceSnapshot = 0
  }
}
