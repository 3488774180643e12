import Domain
import Foundation
import Persistence

/// The shared suite every `PartialReading` store passes. `make` returns a
/// new, empty store; `another`, given one, opens a second handle on the
/// same data (what another process sees), so the kit can check that its
/// partial reads show the first one's writes. A store that compacts
/// (`CompactingStore`) is compacted halfway through the history, so what
/// is read comes from a snapshot and the log after it.
public enum PartialReadingConformance {
  public static func verify(
    make: () throws -> any PartialReading, another: ((any PartialReading) throws -> any PartialReading)? = nil
  ) throws {
    for seed in 1...3 as ClosedRange<UInt64> { try partsMatchTheWhole(make(), seed: seed, another: another) }
    try placesMoveTheirTasks(make())
    if let another { try anotherHandleReadsTheWrites(make(), another: another) }
  }

  /// The suite for a store kept at a path: each store at `location` in a
  /// fresh temporary folder, the second handle opened by `open` at the same path.
  public static func verify(location: @escaping (TemporaryDirectory) -> String, open: @escaping (String) throws -> any PartialReading) throws {
    var folders: [TemporaryDirectory] = []
    var paths: [ObjectIdentifier: String] = [:]
    try verify(
      make: {
        let folder = TemporaryDirectory()
        folders.append(folder)
        let store = try open(location(folder))
        paths[ObjectIdentifier(store)] = location(folder)
        return store
      },
      another: { store in try open(paths[ObjectIdentifier(store)]!) })
  }

  /// A history of puts, field updates, tag changes, memberships, deletes
  /// and merged records from another replica; then every key read alone,
  /// every task found near its own circles, a point near each place, and
  /// every place's name.
  static func partsMatchTheWhole(
    _ store: any PartialReading, seed: UInt64, another: ((any PartialReading) throws -> any PartialReading)? = nil
  ) throws {
    defer { store.close() }
    var random = SplitMix64(seed: seed)
    let remote = InMemoryOperationStore(replica: Fixtures.replica("remote-\(seed)"), clock: ManualClock(Fixtures.epoch))
    var history = History(random: random)
    try history.write(to: store, remote: remote)
    let whole = store.state()
    // The writer itself, and a handle that has read nothing yet.
    let fresh = try another.map { try $0(store) }
    defer { fresh?.close() }
    for reader in [store] + (fresh.map { [$0] } ?? []) {
      random = SplitMix64(seed: seed &+ 100)
      try partsMatch(whole, reader: reader, random: &random)
    }
  }

  static func partsMatch(_ whole: StoreState, reader store: any PartialReading, random: inout SplitMix64) throws {
    var keys = Set(whole.versions.keys.map(\.owner))
    keys.formUnion(whole.tasks.keys.map(EntityKey.task))
    keys.formUnion(whole.places.keys.map(EntityKey.place))
    for key in keys.sorted(by: { $0.description < $1.description }) {
      let part = try store.state(of: [key])
      try same(part, whole, key: key, check: "state(of: \(key))")
      let others = part.versions.keys.filter { $0.owner != key }
      try expect(others.isEmpty, "state(of: \(key))", "holds other keys: \(others.map(\.description).sorted())")
    }
    let some = Set(keys.shuffled(using: &random).prefix(7))
    let part = try store.state(of: some)
    for key in some { try same(part, whole, key: key, check: "state(of: 7 keys)") }
    let known = try store.taskKeys()
    let deleted = whole.versions.keys.filter { if case .task = $0 { whole.entity(for: $0) == nil } else { false } }
    try expect(
      known.isSuperset(of: whole.tasks.keys.map(EntityKey.task)) && known.isSuperset(of: deleted), "taskKeys",
      "missing \(Set(whole.tasks.keys.map(EntityKey.task)).union(deleted).subtracting(known).map(\.description).sorted())")
    let lists = try store.listKeys()
    let expectedLists = whole.listKeys
    try expect(
      lists == expectedLists, "listKeys",
      "found \(lists.map(\.description).sorted()), held or deleted \(expectedLists.map(\.description).sorted())")
    for prefix in ["local.undo.", "local.undo.1", "local", "local.café", "", "nothing."] {
      let found = try store.settingKeys(startingWith: prefix)
      let expected = whole.settingKeys(startingWith: prefix)
      try expect(
        found.isSuperset(of: expected) && found.allSatisfy { if case .setting(let key) = $0 { key.hasPrefix(prefix) } else { false } },
        "settingKeys(startingWith: \(prefix))", "found \(found.map(\.description).sorted()), held or deleted \(expected.map(\.description).sorted())")
    }
    var points = whole.places.values.compactMap(\.coordinate)
    for task in whole.tasks.values {
      for location in task.locations {
        guard let center = whole.coordinate(of: location) else { continue }
        points.append(center)
        // Just inside the circle, north and east.
        let inside = location.radius * 0.999
        points.append(contentsOf: [center.offset(meters: inside, bearing: 0), center.offset(meters: inside, bearing: .pi / 2)])
      }
    }
    for point in points { try tasksNear(point, store: store, whole: whole) }
    try namesMatch(store, whole: whole, check: "placeNames")
    try listsMatch(store, whole: whole, check: "places(inList:)")
  }

  /// `places(inList:)` holds every place each list (held or deleted)
  /// holds in `whole`, and `listCounts()` counts them.
  static func listsMatch(_ store: any PartialReading, whole: StoreState, check: String) throws {
    for key in whole.listKeys {
      guard case .list(let list) = key else { continue }
      let found = try store.places(inList: list)
      let expected = whole.places(inList: list)
      try expect(found.isSuperset(of: expected), check, "\(list): misses \(expected.subtracting(found).map(\.rawValue).sorted())")
    }
    let counts = try store.listCounts().filter { $0.value != 0 }
    try expect(counts == whole.listCounts, "listCounts", "\(counts) ≠ \(whole.listCounts)")
  }

  /// `placeNames()` is every place `whole` holds, each once, with its name.
  static func namesMatch(_ store: any PartialReading, whole: StoreState, check: String) throws {
    let names = try store.placeNames()
    let expected = whole.places.values.map { "\($0.id.rawValue)=\($0.name)" }.sorted()
    let found = names.map { "\($0.id.rawValue)=\($0.name)" }.sorted()
    try expect(found == expected, check, "names \(found) ≠ \(expected)")
    try startsMatch(store, whole: whole, check: check)
    try titlesMatch(store, whole: whole, check: check)
  }

  /// `taskTitles()` is every task `whole` holds, each once, with its
  /// title and whether it is completed.
  static func titlesMatch(_ store: any PartialReading, whole: StoreState, check: String) throws {
    let found = try store.taskTitles().map { "\($0.id.rawValue)=\($0.title)=\($0.completed)" }.sorted()
    let expected = whole.taskTitles.map { "\($0.id.rawValue)=\($0.title)=\($0.completed)" }.sorted()
    try expect(found == expected, "\(check): taskTitles", "titles \(found) ≠ \(expected)")
    try listingsMatch(store, whole: whole, check: check)
  }

  /// `taskListings()` is every task `whole` holds, each once, as
  /// `whole.listing(of:)` makes it.
  static func listingsMatch(_ store: any PartialReading, whole: StoreState, check: String) throws {
    let found = try store.taskListings().listings()
    try expect(Set(found.map(\.id)).count == found.count, "\(check): taskListings", "a task listed twice")
    let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    try expect(
      Set(byID.keys) == Set(whole.tasks.keys), "\(check): taskListings",
      "lists \(byID.keys.map(\.rawValue).sorted()), holds \(whole.tasks.keys.map(\.rawValue).sorted())")
    for id in whole.tasks.keys {
      try expect(byID[id] == whole.listing(of: id), "\(check): taskListings", "\(id.rawValue): \(String(describing: byID[id])) ≠ \(String(describing: whole.listing(of: id)))")
    }
  }

  /// `placeNames(startingWith:idPrefix:)`, where the store answers, holds
  /// every place `whole` holds whose folded name starts with the prefix
  /// or whose id starts with the id's, with its name, and no other name.
  static func startsMatch(_ store: any PartialReading, whole: StoreState, check: String) throws {
    let places = whole.places.values.sorted { $0.id < $1.id }
    var asked: [(folded: String, id: String?)] = [("zzzz-nothing", "zzzz")]
    for place in places.prefix(12) {
      let folded = SearchText.fold(place.name)
      // "~" starts no folded name: the id's start alone finds the place.
      asked += [(folded, nil), (String(folded.prefix(1)), nil), (String(folded.prefix(3)), String(place.id.rawValue.prefix(3))), ("~", place.id.rawValue)]
    }
    for (folded, idPrefix) in asked where !folded.isEmpty {
      guard let found = try store.placeNames(startingWith: folded, idPrefix: idPrefix) else { continue }
      let expected = Set(
        places.filter { SearchText.fold($0.name).utf8.starts(with: folded.utf8) || idPrefix.map($0.id.rawValue.hasPrefix) ?? false }.map(\.id))
      let ids = Set(found.map(\.id))
      try expect(ids.isSuperset(of: expected), "\(check): placeNames(startingWith: \(folded), idPrefix: \(idPrefix ?? "nil"))", "misses \(expected.subtracting(ids).map(\.rawValue).sorted())")
      for (id, name) in found {
        try expect(whole.places[id]?.name == name, "\(check): placeNames(startingWith: \(folded))", "\(id.rawValue) named '\(name)', held as \(whole.places[id]?.name ?? "nothing")")
      }
    }
  }

  /// A place moved (or deleted) moves its tasks' circles with it.
  static func placesMoveTheirTasks(_ store: any PartialReading) throws {
    defer { store.close() }
    var place = Fixtures.place("moving")
    var task = Fixtures.task("uses-it")
    task.locations = [TaskLocation(id: LocationID("l1"), target: .place(place.id), radius: 100)]
    try store.append([.put(.place(place)), .put(.task(task))])
    let far = try Coordinate(latitude: 61.5, longitude: 23.8)
    try expect(try store.tasks(near: Fixtures.helsinki).contains(task.id), "tasks(near:)", "the task at its place is not found")
    place.personal.coordinate = far
    place.personal.name = "Moved away"
    try store.append([.put(.place(place))])
    try tasksNear(far, store: store, whole: store.state())
    try namesMatch(store, whole: store.state(), check: "placeNames after a place moved and was renamed")
    try expect(try store.tasks(near: far).contains(task.id), "tasks(near:) after a place moved", "the task is not found where its place went")
    try store.append([.delete(.place(place.id))])
    try tasksNear(far, store: store, whole: store.state())
    try namesMatch(store, whole: store.state(), check: "placeNames after a place was deleted")
    place = Fixtures.place("moving")
    try store.append([.put(.place(place))])
    try namesMatch(store, whole: store.state(), check: "placeNames after a place came back")
    let list = Fixtures.list("errands")
    try store.append([.put(.list(list)), .put(.membership(Membership(list: list.id, place: place.id)))])
    try listsMatch(store, whole: store.state(), check: "places(inList:) after a place joined a list")
    try store.append([.delete(.membership(Membership(list: list.id, place: place.id)))])
    try store.append([.put(.membership(Membership(list: list.id, place: place.id)))])
    try listsMatch(store, whole: store.state(), check: "places(inList:) after a place left a list and came back")
    try expect(try store.tasks(near: Fixtures.helsinki).contains(task.id), "tasks(near:) after a place came back", "the task is not found")
  }

  static func anotherHandleReadsTheWrites(_ store: any PartialReading, another: (any PartialReading) throws -> any PartialReading) throws {
    let second = try another(store)
    defer {
      second.close()
      store.close()
    }
    _ = try second.state(of: [.task(TaskID("later"))])
    var task = Fixtures.task("later", title: "Post the parcel")
    task.locations[0].target = .coordinate(try Coordinate(latitude: -16.5, longitude: 179.9995))
    try store.append([.put(.task(task))])
    try expect(try second.state(of: [.task(task.id)]).tasks[task.id] == task, "another handle", "does not read a task written by the first")
    try expect(
      try second.tasks(near: Coordinate(latitude: -16.5, longitude: -179.9995)).contains(task.id), "another handle",
      "does not find a task across the antimeridian")
    var place = Fixtures.place("renamed", name: "Before")
    try store.append([.put(.place(place))])
    _ = try second.placeNames()
    place.personal.name = "After"
    try store.append([.put(.place(place))])
    try expect(
      try second.placeNames().contains { $0.id == place.id && $0.name == "After" }, "another handle",
      "does not read a place renamed by the first")
    let list = Fixtures.list("shared")
    _ = try second.places(inList: list.id)
    try store.append([.put(.list(list)), .put(.membership(Membership(list: list.id, place: place.id)))])
    try expect(try second.places(inList: list.id).contains(place.id), "another handle", "does not find a place the first put in a list")
  }

  static func same(_ part: StoreState, _ whole: StoreState, key: EntityKey, check: String) throws {
    try expect(part.entity(for: key) == whole.entity(for: key), check, "entity \(String(describing: part.entity(for: key))) ≠ \(String(describing: whole.entity(for: key)))")
    try expect(part.versions[key] == whole.versions[key], check, "stamp \(String(describing: part.versions[key])) ≠ \(String(describing: whole.versions[key]))")
    if case .place(let id) = key {
      let mine = part.memberships.filter { $0.place == id }, theirs = whole.memberships.filter { $0.place == id }
      try expect(mine == theirs, check, "memberships \(mine) ≠ \(theirs)")
      let mineRecords = part.records(since: nil).filter { $0.operation.key.owner == key }
      let theirRecords = whole.records(since: nil).filter { $0.operation.key.owner == key }
      try expect(mineRecords == theirRecords, check, "the records that rebuild it differ: \(mineRecords.count) against \(theirRecords.count)")
    }
  }

  static func tasksNear(_ point: Coordinate, store: any PartialReading, whole: StoreState) throws {
    let found = try store.tasks(near: point)
    for task in whole.tasks.values {
      let hit = task.locations.contains { location in whole.coordinate(of: location).map { $0.distance(to: point) <= location.radius } ?? false }
      try expect(!hit || found.contains(task.id), "tasks(near: \(point))", "misses \(task.id), whose circle holds the point")
    }
  }

  /// A seeded mix of writes: this replica's own and another's, merged.
  struct History {
    var random: SplitMix64

    mutating func write(to store: any PartialReading, remote: InMemoryOperationStore) throws {
      let centres = [
        Fixtures.helsinki, try Coordinate(latitude: 60.2, longitude: 24.9), try Coordinate(latitude: -16.5, longitude: 179.999),
        try Coordinate(latitude: 89.9995, longitude: 10), try Coordinate(latitude: 0, longitude: 0),
      ]
      var places = (0..<12).map { index in
        var place = Fixtures.place("p\(index)", name: "Place \(index)")
        place.personal.coordinate = centres[index % centres.count].offset(meters: Double(index) * 40, bearing: 0)
        place.personal.tags = index % 3 == 0 ? ["food", "Café"] : []
        return place
      }
      let lists = [Fixtures.list("l0"), Fixtures.list("l1", name: "Pharmacies")]
      var tasks = (0..<10).map { index -> ReminderTask in
        var task = Fixtures.task("t\(index)", title: "Task \(index)")
        task.locations = (0..<(1 + index % 3)).map { n in
          let target: LocationTarget = n == 1 ? .coordinate(centres[(index + n) % centres.count]) : .place(places[(index * 3 + n) % places.count].id)
          return TaskLocation(id: LocationID("l\(n)"), target: target, radius: [40, 150, 1_000, 5_000][(index + n) % 4])
        }
        return task
      }
      try store.append(places.map { .put(.place($0)) } + lists.map { .put(.list($0)) })
      try store.append(tasks.map { .put(.task($0)) })
      try store.append((0..<8).map { .put(.membership(Membership(list: lists[$0 % 2].id, place: places[$0].id))) })
      for round in 0..<20 {
        if round == 10, let compacting = store as? any CompactingStore { try compacting.compact() }
        let index = Int(random.next() % UInt64(tasks.count))
        let place = Int(random.next() % UInt64(places.count))
        switch round % 5 {
        case 0:
          tasks[index].title = "Task \(index) edited \(round)"
          // Done before the compaction and after it (an open one is preferred by title).
          if round % 2 == 1, !tasks[index].state.isCompleted { try tasks[index].complete(at: Fixtures.epoch) }
          try store.append([.put(.task(tasks[index])), .put(.setting(key: "local.undo.\(round)", value: "edit \(index)"))])
        case 1:
          places[place].personal.tags = places[place].personal.tags.isEmpty ? ["new \(round)"] : Array(places[place].personal.tags.dropFirst())
          places[place].personal.coordinate = places[place].coordinate?.offset(meters: 36, bearing: -0.6)
          places[place].personal.name = "Place \(place) renamed \(round)"
          try store.append([.put(.place(places[place]))])
        case 2:
          try store.append([.delete(.membership(Membership(list: lists[place % 2].id, place: places[place].id)))])
          // Lists come before the compaction and after it, and one goes.
          try store.append([.put(.list(Fixtures.list("l\(round)", name: "List \(round)")))])
          if round > 10 { try store.append([.delete(.list(lists[1].id))]) }
        case 3:
          // Another replica edits and deletes; its records are merged.
          var theirs = tasks[index]
          theirs.notes = "from the other phone \(round)"
          try remote.append([.put(.task(theirs)), .put(.place(places[place])), .put(.tag(PlaceTag(place: places[place].id, name: "remote")))])
          if round > 10 { try remote.append([.delete(.task(tasks[(index + 1) % tasks.count].id))]) }
          try store.merge(try remote.operations(since: nil))
        default:
          try store.append([.delete(.task(tasks[index].id)), .delete(.setting("local.undo.\(round - 4)")), .put(.setting(key: "local", value: "\(round)")), .put(.setting(key: "local.café.\(round)", value: "1"))])
          if round > 10 { try store.append([.delete(.place(places[place].id))]) }
        }
      }
    }
  }
}
