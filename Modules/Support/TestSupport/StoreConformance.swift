import Domain
import Foundation
import Locking
import Persistence

/// The shared suite every `OperationStore` passes: one call from each
/// adapter's tests. `make` returns a new, empty store each time; `reopen`,
/// when given, closes a store and opens the same data again (for durable
/// stores), so the kit can check that acknowledged writes survive.
public enum StoreConformance {
  public static func verify(
    make: () throws -> any OperationStore,
    reopen: ((any OperationStore) throws -> any OperationStore)? = nil
  ) throws {
    try emptyBatch(make())
    try appendStampsAndApplies(make())
    try deleteLeavesTombstone(make())
    try mergeIsLastWriterWins(make())
    try mergeIsIdempotentAndCommutative(make(), make())
    try operationsSince(make())
    try clockMovesPastMerged(make())
    try closedStoreRefuses(make())
    try appendThenAnswersOnceInOrder(make())
    try appendUnlessSupersededWritesOnlyWhenNot(make())
    try stateGenerationMovesWithTheState(make())
    if let reopen { try survivesReopen(make(), reopen: reopen) }
  }

  /// The suite for a store kept at a path: each store at `location` in a
  /// fresh temporary folder, reopened by `open` at the same path.
  public static func verify(location: @escaping (TemporaryDirectory) -> String, open: @escaping (String) throws -> any OperationStore) throws {
    var folders: [TemporaryDirectory] = []
    var paths: [ObjectIdentifier: String] = [:]
    func opened(_ path: String) throws -> any OperationStore {
      let store = try open(path)
      paths[ObjectIdentifier(store)] = path
      return store
    }
    try verify(
      make: {
        let folder = TemporaryDirectory()
        folders.append(folder)
        return try opened(location(folder))
      },
      reopen: { store in
        let path = paths[ObjectIdentifier(store)]!
        store.close()
        return try opened(path)
      })
  }

  static func emptyBatch(_ store: any OperationStore) throws {
    defer { store.close() }
    let records = try store.append([])
    try expect(records.isEmpty, "empty append", "returned \(records.count) records")
    try expect(store.state().versions.isEmpty, "empty append", "state changed")
  }

  static func appendStampsAndApplies(_ store: any OperationStore) throws {
    defer { store.close() }
    let records = try store.append([.put(.task(Fixtures.task("t1"))), .put(.place(Fixtures.place("p1")))])
    try expect(records.count == 2, "append", "expected 2 records, got \(records.count)")
    try expect(records[0].stamp < records[1].stamp, "append stamps", "not strictly increasing: \(records.map(\.stamp))")
    try expect(records.allSatisfy { $0.stamp.replica == store.replica }, "append stamps", "stamped with another replica")
    let more = try store.append([.put(.list(Fixtures.list("g1")))])
    try expect(more[0].stamp > records[1].stamp, "append stamps", "a later batch got an older stamp")
    let state = store.state()
    try expect(state.tasks[TaskID("t1")]?.title == "Buy milk", "append applies", "task not in state")
    try expect(state.places[PlaceID("p1")] != nil && state.lists[ListID("g1")] != nil, "append applies", "place or list missing")
    try expect(state.latest == more[0].stamp, "latest stamp", "latest is \(String(describing: state.latest))")
  }

  /// A store that gives a generation gives a new one with every change a
  /// reader could see: the arrival engine keeps the state it read while
  /// the number stays, so a change without a new number would go unseen.
  static func stateGenerationMovesWithTheState(_ store: any OperationStore) throws {
    defer { store.close() }
    guard let first = store.stateGeneration else { return }
    try store.append([.put(.task(Fixtures.task("t1")))])
    let appended = store.stateGeneration
    try expect(appended != nil && appended != first, "state generation", "\(first) before an append, \(String(describing: appended)) after")
    var seen: Set<Int?> = [first, appended]
    try store.append([.put(.setting(key: "k", value: "v"))])
    try expect(seen.insert(store.stateGeneration).inserted, "state generation", "a setting written gave a number seen before")
    try store.append([.delete(.task(TaskID("t1")))])
    try expect(seen.insert(store.stateGeneration).inserted, "state generation", "a delete gave a number seen before")
    let after = (store.state().latest?.wallMillis ?? 0) + 1000
    let changed = try store.merge([OperationRecord(stamp: Fixtures.stamp(after), operation: .put(.list(Fixtures.list("g1"))))])
    try expect(changed.count == 1, "state generation", "the merged record changed nothing")
    try expect(seen.insert(store.stateGeneration).inserted, "state generation", "a merge that changed the state gave a number seen before")
    let done = OneShot<Result<[OperationRecord], any Error>>()
    store.append([.put(.task(Fixtures.task("t2")))]) { done.put($0) }
    _ = try done.take().get()
    try expect(seen.insert(store.stateGeneration).inserted, "state generation", "an append answered later gave a number seen before")
    try expect(store.state().tasks[TaskID("t2")] != nil, "state generation", "the task appended is not in the state")
  }

  static func deleteLeavesTombstone(_ store: any OperationStore) throws {
    defer { store.close() }
    let put = try store.append([.put(.list(Fixtures.list("g1")))])
    let deleted = try store.append([.delete(.list(ListID("g1")))])
    try expect(store.state().lists.isEmpty, "delete", "list still present")
    let all = try store.operations(since: nil)
    try expect(all.count == 1 && all[0].operation == .delete(.list(ListID("g1"))), "tombstone", "operations: \(all)")
    try expect(all[0].stamp == deleted[0].stamp && deleted[0].stamp > put[0].stamp, "tombstone", "stamp not kept")
  }

  static func mergeIsLastWriterWins(_ store: any OperationStore) throws {
    defer { store.close() }
    try store.append([.put(.list(Fixtures.list("g1")))])
    try store.append([.delete(.list(ListID("g1")))])
    // A stale replica's older put must not resurrect the deleted list.
    let stale = OperationRecord(stamp: Fixtures.stamp(1), operation: .put(.list(Fixtures.list("g1"))))
    let changed = try store.merge([stale])
    try expect(changed.isEmpty, "merge older put", "an older put changed state: \(changed)")
    try expect(store.state().lists.isEmpty, "merge older put", "a deleted list came back")
    // A newer remote write wins: a second after the store's own latest (a
    // stamp far in the future is refused by stores that guard their clock).
    let after = (store.state().latest?.wallMillis ?? 0) + 1000
    let newer = OperationRecord(stamp: Fixtures.stamp(after), operation: .put(.list(Fixtures.list("g1", name: "Shops"))))
    try store.merge([newer])
    try expect(store.state().lists[ListID("g1")]?.name == "Shops", "merge newer put", "newer write lost")
  }

  static func mergeIsIdempotentAndCommutative(_ a: any OperationStore, _ b: any OperationStore) throws {
    defer {
      a.close()
      b.close()
    }
    let r1 = OperationRecord(stamp: Fixtures.stamp(10, replica: "x"), operation: .put(.place(Fixtures.place("p1"))))
    let r2 = OperationRecord(stamp: Fixtures.stamp(20, replica: "y"), operation: .put(.place(Fixtures.place("p1", name: "K-Market"))))
    let r3 = OperationRecord(stamp: Fixtures.stamp(15, replica: "z"), operation: .delete(.place(PlaceID("p1"))))
    try a.merge([r1, r2, r3])
    try b.merge([r3])
    try b.merge([r2])
    try b.merge([r1])
    try expect(a.state().places == b.state().places, "merge commutative", "orders disagree")
    try expect(a.state().places[PlaceID("p1")]?.name == "K-Market", "merge", "newest write did not win")
    let again = try a.merge([r1, r2, r3])
    try expect(again.isEmpty, "merge idempotent", "merging twice changed \(again.count) records")
  }

  static func operationsSince(_ store: any OperationStore) throws {
    defer { store.close() }
    let first = try store.append([.put(.place(Fixtures.place("p1")))])
    let second = try store.append([.put(.place(Fixtures.place("p2"))), .put(.setting(key: "k", value: "v"))])
    let since = try store.operations(since: first[0].stamp)
    try expect(since.map(\.stamp) == second.map(\.stamp), "operations since", "got \(since.map(\.stamp))")
    let all = try store.operations(since: nil)
    try expect(all.count == 3 && all == all.sorted { $0.stamp < $1.stamp }, "operations since nil", "got \(all.count), ordered \(all.map(\.stamp))")
  }

  static func clockMovesPastMerged(_ store: any OperationStore) throws {
    defer { store.close() }
    // Five minutes ahead of the store's own clock: within what stores that
    // guard their clock accept, and far enough to be ahead of it.
    let mine = try store.append([.put(.setting(key: "mine", value: "local"))])
    let future = Fixtures.stamp(mine[0].stamp.wallMillis + 300_000, 7)
    try store.merge([OperationRecord(stamp: future, operation: .put(.setting(key: "k", value: "remote")))])
    let local = try store.append([.put(.setting(key: "k", value: "local"))])
    try expect(local[0].stamp > future, "clock observes merges", "local stamp \(local[0].stamp) not after \(future)")
    try expect(store.state().settings["k"] == "local", "clock observes merges", "later local write lost")
  }

  /// `append(_:then:)`: every batch answered exactly once, with its
  /// records, applied by the time it is answered, in the order handed in;
  /// a write from inside an answer lands too; a closed store answers with
  /// an error.
  static func appendThenAnswersOnceInOrder(_ store: any OperationStore) throws {
    let answers = Locked<[(index: Int, records: [OperationRecord], applied: Bool)]>([])
    let failures = Locked<[String]>([])
    let finished = DispatchSemaphore(value: 0)
    let count = 40
    for index in 0..<count {
      store.append([.put(.setting(key: "k\(index)", value: "v\(index)"))]) { result in
        switch result {
        case .success(let records):
          let applied = store.state().settings["k\(index)"] == "v\(index)"
          answers.withLock { $0.append((index, records, applied)) }
          // A write from inside the answer (the daemon's engine may write).
          if index == 0 {
            do { try store.append([.put(.setting(key: "inside", value: "yes"))]) } catch { failures.withLock { $0.append("inside: \(error)") } }
          }
        case .failure(let error): failures.withLock { $0.append("\(index): \(error)") }
        }
        finished.signal()
      }
    }
    for _ in 0..<count {
      try expect(finished.wait(timeout: .now() + 30) == .success, "append then", "a batch was never answered")
    }
    try expect(failures.withLock { $0 }.isEmpty, "append then", "failed: \(failures.withLock { $0 })")
    let got = answers.withLock { $0 }
    try expect(got.map(\.index) == Array(0..<count), "append then", "answered out of order or more than once: \(got.map(\.index))")
    try expect(got.allSatisfy { $0.records.count == 1 && $0.applied }, "append then", "a batch was answered before it was applied")
    let stamps = got.map { $0.records[0].stamp }
    try expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "append then", "stamps not increasing in the order handed in")
    try expect(store.state().settings["inside"] == "yes", "append then", "a write from inside an answer was lost")
    store.close()
    let refused = Locked<Bool?>(nil)
    store.append([.put(.setting(key: "late", value: "x"))]) { result in
      refused.withLock { if case .failure = result { $0 = true } else { $0 = false } }
      finished.signal()
    }
    try expect(finished.wait(timeout: .now() + 30) == .success && refused.withLock({ $0 }) == true, "append then", "a closed store accepted a batch")
  }

  /// A conditional append whose condition holds writes nothing and
  /// answers nil; one whose condition fails is an append. The condition is
  /// asked of a state holding every earlier acknowledged write.
  static func appendUnlessSupersededWritesOnlyWhenNot(_ store: any OperationStore) throws {
    defer { store.close() }
    try store.append([.put(.setting(key: "seen", value: "9"))])
    func append(_ value: String) throws -> [OperationRecord]? {
      let answer = Locked<Result<[OperationRecord]?, any Error>?>(nil)
      let finished = DispatchSemaphore(value: 0)
      store.append([.put(.setting(key: "seen", value: value))], unless: { state in (state.settings["seen"].flatMap { Int($0) } ?? 0) >= Int(value)! }) {
        result in
        answer.withLock { $0 = result }
        finished.signal()
      }
      try expect(finished.wait(timeout: .now() + 30) == .success, "append unless", "never answered")
      return try answer.withLock { $0 }!.get()
    }
    try expect(try append("8") == nil, "append unless", "an older value was written over a newer one")
    try expect(store.state().settings["seen"] == "9", "append unless", "a superseded batch changed the state")
    let written = try append("10")
    try expect(written?.count == 1 && store.state().settings["seen"] == "10", "append unless", "a batch not superseded was not written: \(String(describing: written))")
  }

  static func closedStoreRefuses(_ store: any OperationStore) throws {
    store.close()
    var refused = false
    do { try store.append([.put(.setting(key: "k", value: "v"))]) } catch { refused = true }
    try expect(refused, "closed store", "append after close succeeded")
    store.close()
  }

  static func survivesReopen(
    _ store: any OperationStore, reopen: (any OperationStore) throws -> any OperationStore
  ) throws {
    var place = Fixtures.place("p3")
    place.personal.tags = ["cafe"]
    // What format 4 added: a task only for open hours, a provider's opening hours.
    var onlyOpen = Fixtures.task("t2", title: "Buy stamps")
    onlyOpen.onlyWhileOpen = true
    var shop = Fixtures.place("p4", name: "Posti")
    shop.provider = ProviderPlaceData(
      ref: "osm:node/1", name: "Posti", coordinate: Fixtures.helsinki, address: nil, category: "amenity=post_office",
      fetchedAt: Fixtures.epoch, expiresAt: Fixtures.epoch.addingTimeInterval(86_400), hours: "Mo-Fr 08:00-20:00; Sa 10:00-16:00")
    try store.append([
      .put(.task(Fixtures.task("t1"))), .put(.place(Fixtures.place("p1"))), .put(.place(place)), .put(.task(onlyOpen)), .put(.place(shop)),
    ])
    // An edit and a retag: a field update and tag records; the flag set by an update.
    var task = Fixtures.task("t1")
    task.notes = "oat"
    task.onlyWhileOpen = true
    place.personal.tags = ["late"]
    try store.append([.put(.task(task)), .put(.place(place))])
    let last = try store.append([.delete(.place(PlaceID("p1"))), .put(.membership(Membership(list: ListID("g"), place: PlaceID("p2"))))])
    let before = store.state()
    try expect(before.tasks[task.id] == task && before.places[place.id] == place, "edit", "an edit did not apply")
    try expect(
      before.tasks[onlyOpen.id]?.onlyWhileOpen == true && before.places[shop.id]?.provider?.hours == shop.provider?.hours, "open hours",
      "a task's only-while-open or a place's opening hours were lost")
    let reopened = try reopen(store)
    defer { reopened.close() }
    let after = reopened.state()
    try expect(after.tasks == before.tasks && after.places == before.places && after.memberships == before.memberships, "reopen", "state differs after reopen")
    try expect(after == before, "reopen", "stamps, field stamps, tags or tombstones lost")
    let next = try reopened.append([.put(.setting(key: "k", value: "v"))])
    try expect(next[0].stamp > last[1].stamp, "reopen clock", "stamp after reopen went backwards")
  }
}
