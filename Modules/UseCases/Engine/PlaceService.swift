import Domain
import Foundation
import Persistence

/// Saved places: adding, correcting, tagging and deleting them.
public struct PlaceService: Sendable {
  let context: EngineContext

  public var lists: ListService { ListService(context: context) }

  public func add(
    name: String, coordinate: Coordinate, address: String? = nil, tags: [String] = [], note: String = ""
  ) throws -> Place {
    let trimmed = try CleanText.name(name, field: "place name")
    guard !trimmed.isEmpty else {
      throw DomainError.invalidValue(field: "place name", value: name, allowed: "a non-empty name")
    }
    let place = Place(
      id: PlaceID(context.ids.next()),
      personal: PersonalPlaceData(
        name: trimmed, coordinate: coordinate, address: try address.map { try CleanText.name($0, field: "address") },
        tags: Self.normalized(tags), note: try CleanText.note(note)),
      createdAt: context.clock.now())
    try context.store.append([.put(.place(place))])
    return place
  }

  /// By exact id, read alone where the store can (`PartialReading`); by
  /// name or prefix, resolved among the places' names alone and then read
  /// alone there, or from the whole state. Where the store indexes folded
  /// names, the names that start as the reference does come first: the
  /// same answer (a name, an id's start or a name's start decide among
  /// those alone, all of which are there), and only words of a name or a
  /// slip read every name.
  public func get(_ reference: String) throws -> Place {
    if let place = try context.state(ofPlace: reference)?.places[PlaceID(reference)] { return place }
    func resolve(_ names: [(id: PlaceID, name: String)]) throws(DomainError) -> PlaceID {
      try Reference.resolve(
        reference, kind: "place", among: names.map { Reference.Candidate(id: $0.id.rawValue, name: $0.name, preferred: true, value: $0.id) })
    }
    var resolved: PlaceID?
    // Only when a name or an id there starts as the reference does: then
    // resolving stops at those steps, among all of them. Otherwise words
    // of names or a slip decide, among every name.
    if let starting = try context.placeNames(startingWith: reference) {
      let folded = SearchText.fold(reference)
      if starting.contains(where: { SearchText.fold($0.name).hasPrefix(folded) || (reference.count >= 3 && $0.id.rawValue.hasPrefix(reference)) }) {
        resolved = try resolve(starting)
      }
    }
    if resolved == nil, let names = try context.placeNames() { resolved = try resolve(names) }
    // Deleted since its name was read: resolved again against what is there now.
    if let id = resolved, let place = try context.state(ofPlace: id.rawValue)?.places[id] { return place }
    return try context.wholeState().place(reference)
  }

  /// Lists a place is in, by name (read alone where the store can).
  public func lists(of place: PlaceID) throws -> [PlaceList] {
    try listsByPlace(in: context.state(ofPlace: place.rawValue) ?? context.wholeState())[place] ?? []
  }

  /// The lists every place is in, by name: for showing many places at once.
  public func listsByPlace() throws -> [PlaceID: [PlaceList]] {
    try listsByPlace(in: context.wholeState())
  }

  private func listsByPlace(in state: StoreState) -> [PlaceID: [PlaceList]] {
    var lists: [PlaceID: [PlaceList]] = [:]
    for membership in state.memberships {
      if let list = state.lists[membership.list] { lists[membership.place, default: []].append(list) }
    }
    return lists.mapValues { $0.sorted { ($0.name, $0.id) < ($1.name, $1.id) } }
  }

  public func edit(
    _ reference: String, name: String? = nil, address: String? = nil, note: String? = nil, to coordinate: Coordinate? = nil
  ) throws -> Place {
    try update(reference) { place in
      if let name {
        let trimmed = try CleanText.name(name, field: "place name")
        guard !trimmed.isEmpty else {
          throw DomainError.invalidValue(field: "place name", value: name, allowed: "a non-empty name")
        }
        place.personal.name = trimmed
      }
      if let address { place.personal.address = try CleanText.name(address, field: "address") }
      if let note { place.personal.note = try CleanText.note(note) }
      if let coordinate { place.personal.coordinate = coordinate }
    }
  }

  public func tag(_ reference: String, _ tags: [String]) throws -> Place {
    try update(reference) { place in
      place.personal.tags = Self.normalized(place.personal.tags + tags)
    }
  }

  public func untag(_ reference: String, _ tags: [String]) throws -> Place {
    try update(reference) { place in
      let removing = Set(tags.map(SearchText.fold))
      let missing = tags.filter { tag in !place.personal.tags.contains { SearchText.fold($0) == SearchText.fold(tag) } }
      guard missing.isEmpty else {
        throw DomainError.notFound(kind: "tag on '\(place.name)'", reference: missing.joined(separator: ", "))
      }
      place.personal.tags.removeAll { removing.contains(SearchText.fold($0)) }
    }
  }

  /// Deletes a place and its memberships. Refused while a task uses it, so
  /// no reminder silently loses a place. Reads the place and the tasks
  /// near it where the store can (`PartialReading`), not every place.
  public func delete(_ reference: String) throws -> Place {
    let named = try get(reference)
    let state = try context.state(ofPlaceWithTasks: named.id) ?? context.wholeState()
    // Deleted since it was named: answered as the whole state answers a name not there.
    guard let place = state.places[named.id] else { throw DomainError.notFound(kind: "place", reference: reference) }
    let users = state.tasks(using: place.id)
    guard users.isEmpty else {
      throw DomainError.conflict(
        "place '\(place.name)' is used by task(s) \(users.map { "'\($0.title)'" }.joined(separator: ", ")); "
          + "remove it from them first")
    }
    let memberships = state.memberships.filter { $0.place == place.id }.sorted { $0.list < $1.list }
    let undo = UndoJournal(context: context).record(
      "deleted place '\(place.name)'", restoring: [.place(place)] + memberships.map { .membership($0) })
    try context.store.append(memberships.map { .delete(.membership($0)) } + [.delete(.place(place.id))] + undo)
    return place
  }

  /// Whether any place is saved: from the places' names where the store
  /// reads part of itself (`PartialReading`), not every place.
  public func any() throws -> Bool {
    try !(context.placeNames()?.isEmpty ?? context.wholeState().places.isEmpty)
  }

  /// All saved places, A–Z.
  public func all() -> [Place] {
    context.store.state().places.values.sorted(by: PlaceSearch.alphabetical)
  }

  public func search(
    _ query: String, in listReference: String? = nil, order: PlaceSearch.Order = .alphabetical
  ) throws -> [PlaceSearch.Result] {
    let state = context.store.state()
    var candidates = Array(state.places.values)
    if let listReference {
      let list = try state.list(listReference)
      let members = state.places(inList: list.id)
      candidates = candidates.filter { members.contains($0.id) }
    }
    return PlaceSearch.run(query: query, over: candidates, order: order)
  }

  private func update(_ reference: String, _ change: (inout Place) throws -> Void) throws -> Place {
    var place = try get(reference)
    try change(&place)
    try context.store.append([.put(.place(place))])
    return place
  }

  /// Tags are kept trimmed, once each (case- and accent-insensitive), A–Z.
  static func normalized(_ tags: [String]) -> [String] {
    var seen = Set<String>()
    var result: [String] = []
    for tag in tags {
      let trimmed = tag.trimmingCharacters(in: .whitespacesAndNewlines)
      if !trimmed.isEmpty, seen.insert(SearchText.fold(trimmed)).inserted { result.append(trimmed) }
    }
    return result.sorted { SearchText.fold($0) < SearchText.fold($1) }
  }
}
