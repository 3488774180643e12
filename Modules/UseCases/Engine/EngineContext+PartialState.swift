import Domain
import Persistence

extension EngineContext {
  /// What the store holds for the tasks that may fire at `point` and the
  /// places they are tied to: the whole state when the store cannot read
  /// part of it (`PartialReading`).
  func state(near point: Coordinate) throws -> StoreState {
    guard let reader = store as? any PartialReading else { return try wholeState() }
    return try reader.stateWithPlaces(of: Set(try reader.tasks(near: point).map(EntityKey.task)))
  }

  /// Every task and the places they are tied to (`PartialReading`), or the whole state.
  func stateOfTasks() throws -> StoreState {
    guard let reader = store as? any PartialReading else { return try wholeState() }
    return try reader.stateWithPlaces(of: try reader.taskKeys())
  }

  /// Every task as a listing shows it: the store's own listings
  /// (`PartialReading`), or made from the whole state.
  func taskListings() throws -> TaskListingTable {
    guard let reader = store as? any PartialReading else { return TaskListingTable(try wholeState().taskListings) }
    return try reader.taskListings()
  }

  /// Every list, read alone; nil when the store cannot.
  func listsAlone() throws -> StoreState? {
    guard let reader = store as? any PartialReading else { return nil }
    return try reader.state(of: try reader.listKeys())
  }

  /// Every list, the places in `lists` (with their tags and every list
  /// they are in) and, with `tasks`, every task tied to one of those
  /// places (`addTasks(tiedTo:to:)`), read alone; nil when the store
  /// cannot (`PartialReading`).
  func state(ofLists lists: [ListID], tasks: Bool = false) throws -> StoreState? {
    guard let reader = store as? any PartialReading else { return nil }
    var keys = try reader.listKeys()
    for list in lists { keys.formUnion(try reader.places(inList: list).map(EntityKey.place)) }
    var state = try reader.state(of: keys)
    if tasks { try reader.addTasks(tiedTo: Array(state.places.values), to: &state) }
    return state
  }

  /// The place with this id (its tags and memberships) and every task
  /// tied to it, read alone; nil when the store cannot (`PartialReading`).
  /// What deleting a place must know: whether a task still uses it.
  func state(ofPlaceWithTasks id: PlaceID) throws -> StoreState? {
    guard let reader = store as? any PartialReading else { return nil }
    var state = try reader.state(of: [.place(id)])
    try reader.addTasks(tiedTo: Array(state.places.values), to: &state)
    return state
  }

  /// The places with these ids, read alone; nil when the store cannot.
  func state(ofPlaces ids: some Sequence<PlaceID>) throws -> StoreState? {
    guard let reader = store as? any PartialReading else { return nil }
    return try reader.state(of: Set(ids.lazy.map(EntityKey.place)))
  }

  /// Every list and how many places each holds, read without the places
  /// where the store can (`PartialReading`); nil when it cannot.
  func listsWithCounts() throws -> (lists: StoreState, counts: [ListID: Int])? {
    guard let reader = store as? any PartialReading else { return nil }
    return (try reader.state(of: try reader.listKeys()), try reader.listCounts())
  }

  /// The place with this exact id and the lists it is in, read alone;
  /// nil when the store cannot, or holds no place by that id (a name or a
  /// prefix is resolved against the whole state).
  func state(ofPlace id: String) throws -> StoreState? {
    guard let reader = store as? any PartialReading else { return nil }
    let place = PlaceID(id)
    let read = try reader.state(of: [.place(place)])
    guard read.places[place] != nil else { return nil }
    let lists = read.memberships.filter { $0.place == place }.map { EntityKey.list($0.list) }
    return try reader.state(of: Set(lists).union([.place(place)]))
  }

  /// Every place's id and name, read without the places where the store
  /// can (`PartialReading`); nil when it cannot.
  func placeNames() throws -> [(id: PlaceID, name: String)]? {
    guard let reader = store as? any PartialReading else { return nil }
    return try reader.placeNames()
  }

  /// Every task's id, title and whether it is completed, read without the
  /// tasks where the store can (`PartialReading`); nil when it cannot.
  func taskTitles() throws -> [TaskTitle]? {
    guard let reader = store as? any PartialReading else { return nil }
    return try reader.taskTitles()
  }

  /// The tasks `wanted` picks by their titles, found among the titles and
  /// read alone; nil when the store cannot (`PartialReading`).
  func tasks(titled wanted: (TaskTitle) -> Bool) throws -> StoreState? {
    guard let reader = store as? any PartialReading else { return nil }
    return try reader.state(of: Set(try reader.taskTitles().filter(wanted).map { EntityKey.task($0.id) }))
  }

  /// The places a typed reference can name by its name, a start of the
  /// name or a start of the id (`Reference.resolve`'s first steps), where
  /// the store has them indexed; nil when only every name can say.
  func placeNames(startingWith reference: String) throws -> [(id: PlaceID, name: String)]? {
    guard let reader = store as? any PartialReading else { return nil }
    let folded = SearchText.fold(reference)
    guard !folded.isEmpty else { return nil }
    return try reader.placeNames(startingWith: folded, idPrefix: reference.count >= 3 ? reference : nil)
  }

  /// The settings whose keys start with `prefix`, read alone; nil when
  /// the store cannot (`PartialReading`).
  func settings(startingWith prefix: String) throws -> [String: String]? {
    guard let reader = store as? any PartialReading else { return nil }
    return try reader.state(of: try reader.settingKeys(startingWith: prefix)).settings
  }

  /// The task with this exact id and its places, read alone; nil as for `state(ofPlace:)`.
  func state(ofTask id: String) throws -> StoreState? {
    guard let reader = store as? any PartialReading else { return nil }
    let task = EntityKey.task(TaskID(id))
    let read = try reader.stateWithPlaces(of: [task])
    return read.tasks.isEmpty ? nil : read
  }

  /// The whole state. A store that reads parts (and may have been opened
  /// lazily) reads the rest first, so what it cannot read is reported
  /// here instead of showing less; other stores hold it already.
  func wholeState() throws -> StoreState {
    if store is any PartialReading { try store.refresh() }
    return store.state()
  }
}

extension PartialReading {
  /// Adds to `state` every task tied to one of `places` (and more). A task
  /// tied to a place has its circle around the place's position, so the
  /// tasks near each position hold them all; a place with no position
  /// reads every task.
  func addTasks(tiedTo places: [Place], to state: inout StoreState) throws {
    var near: Set<EntityKey> = []
    for place in places {
      guard let position = place.coordinate else {
        near = try taskKeys()
        break
      }
      near.formUnion(try tasks(near: position).map(EntityKey.task))
    }
    let records = try records(of: near)
    state.reserveCapacity(records.count)
    state.apply(contentsOf: records)
  }

  /// What `state()` holds for these tasks and the places they are tied
  /// to (read after the tasks: a place tied meanwhile may be missing, as
  /// if the command had run a moment earlier).
  func stateWithPlaces(of tasks: Set<EntityKey>) throws -> StoreState {
    var state = try state(of: tasks)
    let places = try records(of: state.placeKeys)
    state.reserveCapacity(places.count)
    state.apply(contentsOf: places)
    return state
  }
}
