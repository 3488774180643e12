import Domain
import Foundation
@testable import NATSStore
import Persistence
import Testing
import TestSupport

/// Snapshots of a `nats:` log: an open reads the latest snapshot and what
/// came after it, the log before it is purged, and a reader that was
/// behind when the log was purged catches up through the snapshot.
@Suite(.serialized) struct NATSSnapshotTests {
  @Test func passesTheStoreConformanceKitSnapshottingEveryOtherMessage() throws {
    let server = try NATSServer()
    var made = 0
    try StoreConformance.verify(
      location: { _ in
        made += 1
        return "\(server.url);log=snapshotted\(made)"
      },
      open: { try NATSOperationStore(try NATSLocation($0), clock: ManualClock(), compactEvery: 2) })
  }

  /// The messages left on a log's subject.
  func messages(_ location: NATSLocation) throws -> Int {
    let log = try JetStreamLog(location)
    defer { log.close() }
    return try log.read(location.logSubject, after: 0, through: log.lastSequence(of: location.logSubject)).count
  }

  @Test func anOpenAfterSnapshotsReadsTheLatestAndWhatCameAfter() throws {
    let server = try NATSServer()
    let location = try NATSLocation("\(server.url);log=alice")
    let writer = try NATSOperationStore(location, compactEvery: 10)
    defer { writer.close() }
    for index in 0..<25 { try writer.append([.put(.task(Fixtures.task("t\(index)")))]) }
    try writer.append([.delete(.task(TaskID("t3")))])
    #expect(try messages(location) <= 7, "the log before the last snapshot is purged (one kept, then what came after)")
    let reader = try NATSOperationStore(location, compactEvery: 1000)
    defer { reader.close() }
    #expect(reader.state().versions == writer.state().versions)
    #expect(reader.state().tasks.count == 24 && reader.state().tasks[TaskID("t3")] == nil)
    // Writing on goes on from the snapshot's log: stamps stay after every earlier one.
    let next = try reader.append([.put(.task(Fixtures.task("t99")))])
    #expect(next[0].stamp > (writer.state().versions.values.max() ?? next[0].stamp))
  }

  @Test func aReaderBehindASnapshotCatchesUpThroughIt() throws {
    let server = try NATSServer()
    let location = try NATSLocation("\(server.url);log=bob")
    let writer = try NATSOperationStore(location, compactEvery: 10)
    let reader = try NATSOperationStore(location, compactEvery: 1000)
    defer {
      writer.close()
      reader.close()
    }
    try writer.append([.put(.task(Fixtures.task("early")))])
    try reader.refresh()
    #expect(reader.state().tasks.count == 1)
    // Two snapshots meanwhile: what the reader had not read is purged from the log.
    for index in 0..<25 { try writer.append([.put(.task(Fixtures.task("t\(index)")))]) }
    try writer.append([.put(.place(Fixtures.place("p1")))])
    try reader.refresh()
    #expect(reader.state().versions == writer.state().versions, "\(reader.state().tasks.count) tasks read of \(writer.state().tasks.count)")
  }

  @Test func compactLeavesTheStateAsItWasAndAStateLargerThanOneMessageIsSplit() throws {
    let server = try NATSServer()
    let location = try NATSLocation("\(server.url);log=carol")
    let store = try NATSOperationStore(location, compactEvery: 100_000)
    defer { store.close() }
    // About 2 MB of places, in batches each under one message.
    let name = String(repeating: "Kauppahalli ", count: 60)
    for batch in 0..<6 {
      try store.append((0..<500).map { .put(.place(Fixtures.place("p\(batch)-\($0)", name: name))) })
    }
    try store.append([.delete(.place(PlaceID("p0-0")))])
    let before = store.state()
    try store.compact()
    #expect(store.state().versions == before.versions)
    let log = try JetStreamLog(location)
    defer { log.close() }
    let parts = try log.read(location.snapshotSubject, after: 0, through: log.lastSequence(of: location.snapshotSubject))
    #expect(parts.count >= 3, "a snapshot of \(before.places.count) places in \(parts.count) messages")
    #expect(try messages(location) == 1, "the message the snapshot was taken at stays")
    let reopened = try NATSOperationStore(location)
    defer { reopened.close() }
    #expect(reopened.state().versions == before.versions && reopened.state().places.count == 2_999)
    try reopened.append([.put(.task(Fixtures.task("after")))])
    try store.refresh()
    #expect(store.state().versions == reopened.state().versions)
  }

  /// Two stores compacting one log at once interleave their snapshots'
  /// parts: each is read by its id, and the later whole one is taken.
  @Test func interleavedPartsOfTwoSnapshotsAreEachReadWhole() throws {
    let server = try NATSServer()
    let location = try NATSLocation("\(server.url);log=dave")
    let store = try NATSOperationStore(location, compactEvery: 100_000)
    defer { store.close() }
    // Two batches: once the log is purged below the second, the first is only in the snapshots.
    let written = try store.append([.put(.task(Fixtures.task("t1")))]) + store.append([.put(.task(Fixtures.task("t2")))])
    let log = try JetStreamLog(location)
    defer { log.close() }
    let through = try log.lastSequence(of: location.logSubject)
    let parts = [("a", 0, [written[0]]), ("b", 0, [written[0]]), ("a", 1, [written[1]]), ("b", 1, [written[1]])]
    for (id, part, records) in parts {
      let data = try JSONEncoder().encode(NATSOperationStore.SnapshotPart(id: id, part: part, last: part == 1, through: through, records: records))
      _ = try log.publish(data, on: location.snapshotSubject, expected: nil, id: UUID().uuidString)
    }
    try log.purge(location.logSubject, below: through)
    let reopened = try NATSOperationStore(location)
    defer { reopened.close() }
    #expect(reopened.state().versions == store.state().versions && reopened.state().tasks.count == 2)
  }
}
