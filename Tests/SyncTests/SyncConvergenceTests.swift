import Domain
import Engine
import FolderSync
import Foundation
import Persistence
import Sync
import Testing
import TestSupport

/// Random histories on three replicas, synced in random orders: they all
/// end in the same state; a deleted list never comes back; an archive
/// merged twice changes nothing.
@Suite struct SyncConvergenceTests {
  struct Replica {
    let clock: ManualClock
    let store: InMemoryOperationStore
    let sync: SyncService

    init(_ name: String, clock: ManualClock) {
      self.clock = clock
      store = InMemoryOperationStore(replica: try! ReplicaID(name), clock: clock)
      sync = SyncService(context: EngineContext(store: store, clock: clock, ids: SequentialIDGenerator(prefix: name)))
    }
  }

  /// One random operation on a small key space, so replicas collide: whole
  /// puts and deletes, and edits of one field or one tag of what the
  /// replica holds (which the store writes as field updates and tag adds
  /// and removals).
  static func randomOperation(_ random: inout SplitMix64, held state: StoreState) -> StoreOperation {
    let key = Int(random.next() % 6)
    let value = random.next() % 100
    switch random.next() % 10 {
    case 0: return .put(.task(Fixtures.task("t\(key)", title: "v\(value)")))
    case 1: return .delete(.task(TaskID("t\(key)")))
    case 2: return .put(.list(try! PlaceList(id: ListID("g\(key)"), name: "List \(value)", createdAt: Fixtures.epoch)))
    case 3: return .delete(.list(ListID("g\(key)")))
    case 4: return .put(.membership(Membership(list: ListID("g\(key)"), place: PlaceID("p\(value % 4)"))))
    case 5:
      guard var task = state.tasks[TaskID("t\(key)")] else { return .put(.task(Fixtures.task("t\(key)"))) }
      switch value % 3 {
      case 0: task.title = "title \(value)"
      case 1: task.notes = "notes \(value)"
      default: task.state = value % 2 == 0 ? .completed(at: Fixtures.epoch) : .active
      }
      return .put(.task(task))
    case 6, 7, 8:
      let id = PlaceID("p\(key % 4)")
      if value % 10 == 0 { return .delete(.place(id)) }
      guard var place = state.places[id] else { return .put(.place(Fixtures.place(id.rawValue))) }
      let tag = ["cafe", "work", "late", "cheap"][Int(value / 4 % 4)]
      switch value % 4 {
      case 0: place.personal.name = "name \(value)"
      case 1: place.personal.note = "note \(value)"
      case 2: place.personal.tags = Array(Set(place.personal.tags + [tag])).sorted()
      default: place.personal.tags.removeAll { $0 == tag || value % 8 == 7 }
      }
      return .put(.place(place))
    default: return .put(.setting(key: "s\(key)", value: "\(value)"))
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func everyDeliveryOrderConverges(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let clock = ManualClock(Fixtures.epoch)
    let replicas = ["ra", "rb", "rc"].map { Replica($0, clock: clock) }
    let hub = InMemorySyncHub()
    var updates = 0
    var tagChanges = 0
    for _ in 0..<80 {
      let replica = replicas[Int(random.next() % 3)]
      clock.advance(by: Double(random.next() % 3))
      let operations = (0..<Int(1 + random.next() % 3)).map { _ in Self.randomOperation(&random, held: replica.store.state()) }
      let written = try replica.store.append(operations)
      updates += written.count { $0.fields != nil }
      tagChanges += written.count { if case .tag = $0.operation.key { return true } else { return false } }
      if random.next() % 4 == 0 { _ = try replicas[Int(random.next() % 3)].sync.sync(with: hub) }
    }
    // Two rounds: everyone sends, then everyone has everything.
    for _ in 0..<2 { for replica in replicas { _ = try replica.sync.sync(with: hub) } }
    let states = replicas.map { $0.store.state() }
    for state in states.dropFirst() {
      #expect(state.tasks == states[0].tasks)
      #expect(state.places == states[0].places)
      #expect(state.lists == states[0].lists)
      #expect(state.memberships == states[0].memberships)
      #expect(state.settings.filter { !$0.key.hasPrefix("local.") } == states[0].settings.filter { !$0.key.hasPrefix("local.") })
    }
    // The histories did exercise what they are meant to.
    #expect(updates > 5 && tagChanges > 2, "only \(updates) field updates and \(tagChanges) tag changes")
    // What a replica would send from scratch rebuilds it exactly (compaction
    // and backups depend on it).
    var rebuilt = StoreState()
    for record in states[0].records(since: nil) { rebuilt.apply(record) }
    #expect(rebuilt == states[0])
  }

  /// The same records applied in random orders, some twice, give equal
  /// states, stamps included.
  @Test(arguments: [11, 12, 13, 14] as [UInt64])
  func applyingInAnyOrderGivesTheSameState(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let clock = ManualClock(Fixtures.epoch)
    let replicas = ["ra", "rb", "rc"].map { Replica($0, clock: clock) }
    var log: [OperationRecord] = []
    for _ in 0..<60 {
      let replica = replicas[Int(random.next() % 3)]
      clock.advance(by: Double(random.next() % 2))
      let operations = (0..<Int(1 + random.next() % 3)).map { _ in Self.randomOperation(&random, held: replica.store.state()) }
      log += try replica.store.append(operations)
      if random.next() % 3 == 0 {
        // A partial exchange: one replica merges another's records so far.
        let other = replicas[Int(random.next() % 3)]
        try other.store.merge(log.filter { $0.stamp.replica == replica.store.replica })
      }
    }
    var reference = StoreState()
    for record in log { reference.apply(record) }
    for _ in 0..<5 {
      var shuffled = log + log.prefix(Int(random.next() % UInt64(log.count)))
      for index in shuffled.indices.reversed() { shuffled.swapAt(index, Int(random.next() % UInt64(index + 1))) }
      var state = StoreState()
      for record in shuffled { state.apply(record) }
      #expect(state == reference)
    }
  }

  @Test func aDeletedListStaysDeletedWhenAStaleArchiveArrives() throws {
    let clock = ManualClock(Fixtures.epoch)
    let laptop = Replica("laptop", clock: clock)
    try laptop.store.append([
      .put(.list(try PlaceList(id: ListID("g1"), name: "Shops", createdAt: Fixtures.epoch))), .put(.place(Fixtures.place("p1"))),
      .put(.membership(Membership(list: ListID("g1"), place: PlaceID("p1")))),
      .put(.list(try PlaceList(id: ListID("g2"), name: "Cafés", createdAt: Fixtures.epoch))), .put(.membership(Membership(list: ListID("g2"), place: PlaceID("p1")))),
    ])
    let old = try laptop.sync.backup()
    clock.advance(by: 60)
    try laptop.store.append([.delete(.list(ListID("g1"))), .delete(.membership(Membership(list: ListID("g1"), place: PlaceID("p1"))))])
    let first = try laptop.sync.restore(old)
    #expect(first.applied == 0)
    #expect(laptop.store.state().lists[ListID("g1")] == nil, "the deleted list came back")
    #expect(laptop.store.state().lists[ListID("g2")] != nil && laptop.store.state().places[PlaceID("p1")] != nil, "what it shared was lost")
    #expect(laptop.store.state().memberships.contains(Membership(list: ListID("g2"), place: PlaceID("p1"))))
    // Into a fresh replica, then twice: the second changes nothing.
    let fresh = Replica("fresh", clock: clock)
    #expect(try fresh.sync.restore(old).applied == 5)
    #expect(try fresh.sync.restore(old).applied == 0)
  }

  /// The same field edited on two machines: the older edit is reported as
  /// a settled conflict, naming what it was about; a record already held is
  /// not a conflict when it arrives again.
  @Test func aSyncNamesTheConflictsItSettled() throws {
    let clock = ManualClock(Fixtures.epoch)
    let laptop = Replica("laptop", clock: clock)
    let phone = Replica("phone", clock: clock)
    let hub = InMemorySyncHub()
    try laptop.store.append([.put(.task(Fixtures.task("t1")))])
    _ = try laptop.sync.sync(with: hub)
    _ = try phone.sync.sync(with: hub)
    var older = laptop.store.state().tasks[TaskID("t1")]!
    older.title = "Buy oat milk"
    try laptop.store.append([.put(.task(older))])
    clock.advance(by: 5)
    var newer = phone.store.state().tasks[TaskID("t1")]!
    newer.title = "Buy soy milk"
    newer.notes = "2 litres"
    try phone.store.append([.put(.task(newer))])
    _ = try phone.sync.sync(with: hub)
    let report = try laptop.sync.sync(with: hub)
    #expect(report.applied == 1 && report.settled == 0, "the laptop takes the newer edit: \(report)")
    let back = try phone.sync.sync(with: hub)
    #expect(back.settled == 1, "\(back)")
    #expect(back.conflicts == ["task 'Buy soy milk': title"], "\(back.conflicts)")
    #expect(phone.store.state().tasks == laptop.store.state().tasks)
    // A plain sync again brings nothing; from the start, the records held
    // already are not conflicts, and the edit that lost is the one again.
    let next = try phone.sync.sync(with: hub)
    #expect(next.received == 0 && next.settled == 0, "\(next)")
    let again = try phone.sync.sync(with: hub, fromStart: true)
    #expect(again.received == 2 && again.applied == 0 && again.settled == 1, "\(again)")
  }

  @Test func transportsPassTheSharedSuite() throws {
    try SyncTransportConformance.verify { InMemorySyncHub() }
    let directory = TemporaryDirectory()
    var count = 0
    try SyncTransportConformance.verify {
      count += 1
      let path = directory.file("folder\(count)")
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      return FolderSyncTransport(path: path)
    }
  }

  /// A complete line whose check fails (bit rot, a hostile edit) is not
  /// applied, nor anything after it in that file; the warning names it.
  @Test func aCorruptedSegmentLineIsRefused() throws {
    let directory = TemporaryDirectory()
    let writer = try ReplicaID("writer")
    let records = SyncFormatTests.records(3).map { OperationRecord(stamp: HLCTimestamp(wallMillis: $0.stamp.wallMillis, counter: 0, replica: writer), operation: $0.operation) }
    var lines = try records.map { try SegmentLine.encode($0) }
    lines[1][20] = lines[1][20] == 0x61 ? 0x62 : 0x61
    try FileManager.default.createDirectory(atPath: directory.file("writer"), withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: directory.file("writer/seg-1.jsonl"), contents: lines.reduce(Data(), +))
    let clock = ManualClock(Fixtures.epoch)
    let reader = Replica("reader", clock: clock)
    let report = try reader.sync.sync(with: FolderSyncTransport(path: directory.path))
    #expect(report.received == 1 && report.applied == 1)
    #expect(report.warnings.contains { $0.contains("seg-1.jsonl line 2") && $0.contains("checksum") })
    #expect(reader.store.state().tasks.count == 1)
  }

  /// Another replica's file that is still arriving: its complete lines are
  /// applied, the torn rest is skipped with a warning and picked up later.
  @Test func aTornSegmentIsSkippedThenPickedUp() throws {
    let directory = TemporaryDirectory()
    let folder = FolderSyncTransport(path: directory.path)
    let writer = try ReplicaID("writer")
    let records = SyncFormatTests.records(3).map { OperationRecord(stamp: HLCTimestamp(wallMillis: $0.stamp.wallMillis, counter: 0, replica: writer), operation: $0.operation) }
    var bytes = Data()
    for record in records { bytes.append(try SegmentLine.encode(record)) }
    let file = directory.file("writer/seg-1.jsonl")
    try FileManager.default.createDirectory(atPath: directory.file("writer"), withIntermediateDirectories: true)
    let cut = bytes.count - 20
    _ = FileManager.default.createFile(atPath: file, contents: bytes.prefix(cut))
    let reader = try ReplicaID("reader")
    let first = try folder.pull(after: nil, replica: reader)
    #expect(first.records.map(\.stamp) == records.prefix(2).map(\.stamp))
    #expect(first.warnings.contains { $0.contains("half-written") })
    _ = FileManager.default.createFile(atPath: file, contents: bytes)
    let second = try folder.pull(after: first.cursor, replica: reader)
    #expect(second.records.map(\.stamp) == [records[2].stamp])
    #expect(second.warnings.isEmpty)
  }

  /// A replica whose clock runs a day ahead would pin every other replica's
  /// clock there if its records were merged: the sync refuses and changes nothing.
  @Test func recordsStampedFarInTheFutureAreRefusedAndNothingIsMerged() throws {
    let clock = ManualClock(Fixtures.epoch)
    let ahead = ManualClock(Fixtures.epoch.addingTimeInterval(86_400))
    let laptop = Replica("laptop", clock: clock)
    let phone = Replica("phone", clock: ahead)
    let hub = InMemorySyncHub()
    try phone.store.append([.put(.task(Fixtures.task("t1")))])
    _ = try phone.sync.sync(with: hub)
    #expect {
      _ = try laptop.sync.sync(with: hub)
    } throws: { error in
      "\(error)".contains("ahead of this machine's clock") && "\(error)".contains("nothing was merged")
    }
    #expect(laptop.store.state().tasks.isEmpty)
    // Within the allowed skew it merges.
    let near = Replica("tablet", clock: ManualClock(Fixtures.epoch.addingTimeInterval(FutureStampCheck.allowedSkew / 2)))
    try near.store.append([.put(.task(Fixtures.task("t2")))])
    let fresh = Replica("desk", clock: clock)
    let hubTwo = InMemorySyncHub()
    _ = try near.sync.sync(with: hubTwo)
    let report = try fresh.sync.sync(with: hubTwo)
    #expect(report.applied == 1, "\(report)")
  }
}
