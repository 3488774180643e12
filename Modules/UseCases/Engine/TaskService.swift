import Domain
import Foundation
import Persistence

/// Creating, changing and answering tasks. Every method validates first and
/// writes one batch, so a refused command leaves the store unchanged.
public struct TaskService: Sendable {
  let context: EngineContext

  public func add(
    title: String, locations specs: [LocationSpec], notes: String = "", keywords: [String] = [], onlyWhileOpen: Bool = false
  ) throws -> ReminderTask {
    guard !specs.isEmpty else {
      throw DomainError.invalidValue(field: "locations", value: "none", allowed: "at least one --at lat,lon or --place NAME")
    }
    var locations: [TaskLocation] = []
    for (index, spec) in specs.enumerated() {
      locations.append(try makeLocation(spec, id: LocationID("l\(index + 1)")))
    }
    let task = try ReminderTask(
      id: TaskID(context.ids.next()), title: title, notes: notes, keywords: keywords,
      locations: locations, createdAt: context.clock.now(), onlyWhileOpen: onlyWhileOpen)
    try context.store.append([.put(.task(task))])
    return task
  }

  /// A place named by id, name or prefix is found as `PlaceService.get`
  /// finds it: among the places' names alone where the store can.
  func makeLocation(_ spec: LocationSpec, id: LocationID) throws -> TaskLocation {
    let radius = try context.radii.validate(spec.radius ?? context.radii.defaultRadius)
    switch spec.target {
    case .coordinate(let coordinate):
      return TaskLocation(id: id, target: .coordinate(coordinate), radius: radius)
    case .place(let reference):
      let place = try PlaceService(context: context).get(reference)
      guard place.coordinate != nil else {
        throw DomainError.invalidValue(field: "place", value: place.name, allowed: "a place with a coordinate")
      }
      return TaskLocation(id: id, target: .place(place.id), radius: radius)
    }
  }

  public func get(_ reference: String) throws -> ReminderTask {
    try lookUp(reference).task
  }

  /// A task and a state that holds its places: by exact id read alone
  /// where the store can (`PartialReading`); otherwise the whole state.
  public func lookUp(_ reference: String) throws -> (task: ReminderTask, state: StoreState) {
    if let state = try context.state(ofTask: reference), let task = state.tasks[TaskID(reference)] { return (task, state) }
    // A title or a prefix is resolved among the titles alone (open tasks
    // preferred, as among the tasks), then that task is read with its
    // places: neither every task nor every place is needed.
    if let titles = try context.taskTitles() {
      let id = try Reference.resolve(
        reference, kind: "task", among: titles.map { Reference.Candidate(id: $0.id.rawValue, name: $0.title, preferred: !$0.completed, value: $0.id) })
      if let state = try context.state(ofTask: id.rawValue), let task = state.tasks[id] { return (task, state) }
    }
    let state = try context.wholeState()
    return (try state.task(reference), state)
  }

  /// The other tasks not done with the same title as `task` (folded):
  /// usually a slip. Read among the tasks alone where the store can.
  public func twins(of task: ReminderTask) throws -> [ReminderTask] {
    let folded = SearchText.fold(task.title)
    func isTwin(_ id: TaskID, _ title: String, completed: Bool) -> Bool { id != task.id && !completed && SearchText.fold(title) == folded }
    let tasks = try context.tasks(titled: { isTwin($0.id, $0.title, completed: $0.completed) }) ?? context.wholeState()
    return tasks.tasks.values.filter { isTwin($0.id, $0.title, completed: $0.state.isCompleted) }
      .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
  }

  public enum Filter: String, Sendable, CaseIterable {
    case all, active, snoozed, done

    /// Whether a task in `state` is listed at `now` (a snooze run out is active).
    func picks(_ state: TaskState, at now: Date) -> Bool {
      switch (self, state.effective(at: now)) {
      case (.all, _), (.active, .active), (.snoozed, .snoozed), (.done, .completed): true
      default: false
      }
    }
  }

  /// Oldest first, ties by id, so the order is the same every time.
  public func list(_ filter: Filter = .all) -> [ReminderTask] {
    list(filter, in: context.store.state())
  }

  /// The tasks `filter` picks and a state that holds their places, read
  /// without the rest where the store can (`PartialReading`).
  public func listWithPlaces(_ filter: Filter = .all) throws -> (tasks: [ReminderTask], state: StoreState) {
    let state = try context.stateOfTasks()
    return (list(filter, in: state), state)
  }

  /// The tasks `filter` picks as a listing shows them (`TaskListing`),
  /// in `list`'s order, and how many tasks are held in all: read from the
  /// listings the store keeps where it keeps them, so a listing of 10,000
  /// tasks reads no task's record and no place's.
  public func listings(_ filter: Filter = .all) throws -> (listings: [TaskListing], held: Int) {
    let (table, order) = try listingTable(filter)
    return (try order.map(table.listing(at:)), table.count)
  }

  /// What `listings` answers, left encoded: every task held is in `table`,
  /// and the ones `filter` picks are at the positions `order` gives, in
  /// that order.
  public func listingTable(_ filter: Filter = .all) throws -> (table: TaskListingTable, order: [Int]) {
    let now = context.clock.now()
    let table = try context.taskListings()
    return (table, try ListingOrder.positions(in: table) { filter.picks($0.state, at: now) })
  }

  private func list(_ filter: Filter, in state: StoreState) -> [ReminderTask] {
    let now = context.clock.now()
    return state.tasks.values.filter { filter.picks($0.state, at: now) }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
  }

  public func edit(
    _ reference: String, title: String? = nil, notes: String? = nil, keywords: [String]? = nil, onlyWhileOpen: Bool? = nil
  ) throws -> ReminderTask {
    try update(reference) { task in
      if let title { task.title = try ReminderTask.validTitle(title) }
      if let notes { task.notes = try CleanText.note(notes) }
      if let keywords { task.keywords = keywords }
      if let onlyWhileOpen { task.onlyWhileOpen = onlyWhileOpen }
    }
  }

  public func addLocation(_ reference: String, _ spec: LocationSpec) throws -> ReminderTask {
    try update(reference) { task in
      let used = Set(task.locations.map(\.id.rawValue))
      let next = (1...).lazy.map { "l\($0)" }.first { !used.contains($0) }!
      task.locations.append(try makeLocation(spec, id: LocationID(next)))
    }
  }

  public func removeLocation(_ reference: String, location: String) throws -> ReminderTask {
    try update(reference) { task in
      let id = try Self.locationID(location, in: task)
      guard task.locations.count > 1 else {
        throw DomainError.conflict("'\(task.title)' has only this place; delete the task instead")
      }
      task.locations.removeAll { $0.id == id }
    }
  }

  /// Moves a location to priority `priority` (1 = first).
  public func reorder(_ reference: String, location: String, priority: Int) throws -> ReminderTask {
    try update(reference) { task in
      try task.moveLocation(try Self.locationID(location, in: task), toPriority: priority - 1)
    }
  }

  /// Points a location at a new coordinate (a saved place is left alone;
  /// the location stops following it).
  public func move(_ reference: String, location: String, to coordinate: Coordinate) throws -> ReminderTask {
    try update(reference) { task in
      try task.updateLocation(try Self.locationID(location, in: task)) { $0.target = .coordinate(coordinate) }
    }
  }

  public func setRadius(_ reference: String, location: String, meters: Double) throws -> ReminderTask {
    let radius = try context.radii.validate(meters)
    return try update(reference) { task in
      try task.updateLocation(try Self.locationID(location, in: task)) { $0.radius = radius }
    }
  }

  public func setEnabled(_ reference: String, location: String, enabled: Bool) throws -> ReminderTask {
    try update(reference) { task in
      try task.updateLocation(try Self.locationID(location, in: task)) { $0.enabled = enabled }
    }
  }

  /// Mark Done: every place of the task stops counting at once.
  public func done(_ reference: String) throws -> ReminderTask {
    let now = context.clock.now()
    let before = try get(reference)
    return try update(reference, undo: ("marked '\(before.title)' done", [.task(before)])) { try $0.complete(at: now) }
  }

  /// Remind Later: snoozed until `now + seconds`.
  public func later(_ reference: String, for seconds: TimeInterval) throws -> ReminderTask {
    let now = context.clock.now()
    return try update(reference) { try $0.snooze(until: now.addingTimeInterval(seconds), now: now) }
  }

  public func wake(_ reference: String) throws -> ReminderTask {
    let now = context.clock.now()
    return try update(reference) { try $0.wake(now: now) }
  }

  public func reopen(_ reference: String) throws -> ReminderTask {
    try update(reference) { try $0.reopen() }
  }

  public func delete(_ reference: String) throws -> ReminderTask {
    let task = try get(reference)
    try context.store.append([.delete(.task(task.id))] + UndoJournal(context: context).record("deleted task '\(task.title)'", restoring: [.task(task)]))
    return task
  }

  private func update(
    _ reference: String, undo: (label: String, restoring: [Entity])? = nil, _ change: (inout ReminderTask) throws -> Void
  ) throws -> ReminderTask {
    var task = try get(reference)
    try change(&task)
    let journal = undo.map { UndoJournal(context: context).record($0.label, restoring: $0.restoring) } ?? []
    try context.store.append([.put(.task(task))] + journal)
    return task
  }

  /// A location by its 1-based priority number or its id.
  static func locationID(_ text: String, in task: ReminderTask) throws(DomainError) -> LocationID {
    if let index = Int(text.trimmingCharacters(in: CharacterSet(charactersIn: "#"))) {
      guard (1...task.locations.count).contains(index) else {
        throw .invalidValue(field: "location number", value: text, allowed: "1...\(task.locations.count) for '\(task.title)'")
      }
      return task.locations[index - 1].id
    }
    guard let match = task.locations.first(where: { $0.id.rawValue == text }) else {
      throw .notFound(kind: "location of '\(task.title)'", reference: text)
    }
    return match.id
  }
}
