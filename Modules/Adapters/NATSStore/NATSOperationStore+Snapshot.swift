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
    let part: Int
    let parts: Int
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
    let id = UUID().uuidString
    let groups = try parts(of: state.core.state.records(since: nil))
    do {
      var written: (first: UInt64, last: UInt64) = (0, 0)
      for (index, records) in groups.enumerated() {
        let data = try JSONEncoder().encode(SnapshotPart(id: id, part: index, parts: groups.count, through: through, records: records))
        let sequence = try log.publish(data, on: location.snapshotSubject, expected: nil, id: UUID().uuidString)
        written = (index == 0 ? sequence : written.first, sequence)
      }
      try log.purge(location.logSubject, below: through)
      if state.snapshot.first > 0 { try log.purge(location.snapshotSubject, below: state.snapshot.first) }
      state.snapshot = written
      state.sinceSnapshot = 0
    } catch let failure as JetStreamLog.Failure {
      throw StoreError.io(path: location.argument, operation: "write a snapshot", reason: failure.description)
    }
  }

  /// The records in groups that each encode to one message.
  static func parts(of records: [OperationRecord]) throws -> [[OperationRecord]] {
    var groups: [[OperationRecord]] = []
    var pending = [records[...]]
    while let group = pending.popLast() {
      let size = try JSONEncoder().encode(group.map { $0 }).count
      if size <= largestMessage - 512 || group.count <= 1 {
        groups.append(Array(group))
      } else {
        let middle = group.startIndex + group.count / 2
        pending.append(group[middle...])
        pending.append(group[..<middle])
      }
    }
    return groups
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
        throw StoreError.corrupt(path: location.argument, offset: sequence, reason: "message \(sequence) is not part of a snapshot")
      }
      groups[part.id, default: (sequence, sequence, [])].parts.append(part)
      groups[part.id]?.last = sequence
    }
    let wholes = groups.values.filter { group in group.parts.map(\.part) == Array(0..<(group.parts.first?.parts ?? 0)) }
    guard let whole = wholes.max(by: { ($0.parts[0].through, $0.last) < ($1.parts[0].through, $1.last) }) else { return }
    for part in whole.parts { state.core.apply(part.records) }
    state.sequence = max(state.sequence, whole.parts[0].through)
    state.snapshot = (whole.first, whole.last)
    state.sinceSnapshot = 0
  }
}
