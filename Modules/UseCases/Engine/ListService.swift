import Domain
import Foundation
import Persistence

/// Lists of places and their memberships: one place in many lists, never
/// twice in one.
public struct ListService: Sendable {
  let context: EngineContext

  /// Every list, read alone where the store can (`PartialReading`).
  private func lists() throws -> StoreState {
    try context.listsAlone() ?? context.store.state()
  }

  public func create(_ name: String) throws -> PlaceList {
    let state = try lists()
    let folded = SearchText.fold(name)
    if let existing = state.lists.values.first(where: { SearchText.fold($0.name) == folded }) {
      throw DomainError.conflict("a list named '\(existing.name)' already exists (\(existing.id))")
    }
    let list = try PlaceList(id: ListID(context.ids.next()), name: name, createdAt: context.clock.now())
    try context.store.append([.put(.list(list))])
    return list
  }

  public func get(_ reference: String) throws -> PlaceList {
    try lists().list(reference)
  }

  /// Every list and how many places it holds, counted without reading
  /// the places where the store can.
  public func all() throws -> [(list: PlaceList, count: Int)] {
    let (state, counts) = try context.listsWithCounts() ?? { let state = context.store.state(); return (state, state.listCounts) }()
    return state.lists.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.map { ($0, counts[$0.id] ?? 0) }
  }

  /// The list and the place named, and whether the place is in it: read
  /// alone where the store can (the list among the lists, the place by
  /// id or among the names, its memberships with it).
  private func pair(_ listReference: String, _ placeReference: String) throws -> (PlaceList, Place, inList: Bool) {
    let list = try get(listReference)
    let places = PlaceService(context: context)
    let place = try places.get(placeReference)
    let memberships = try context.state(ofPlace: place.id.rawValue)?.memberships ?? context.store.state().memberships
    return (list, place, memberships.contains(Membership(list: list.id, place: place.id)))
  }

  public func add(place placeReference: String, to listReference: String) throws -> (PlaceList, Place) {
    let (list, place, inList) = try pair(listReference, placeReference)
    let membership = Membership(list: list.id, place: place.id)
    guard !inList else {
      throw DomainError.conflict("'\(place.name)' is already in list '\(list.name)'")
    }
    try context.store.append([.put(.membership(membership))])
    return (list, place)
  }

  public func remove(place placeReference: String, from listReference: String) throws -> (PlaceList, Place) {
    let (list, place, inList) = try pair(listReference, placeReference)
    let membership = Membership(list: list.id, place: place.id)
    guard inList else {
      throw DomainError.notFound(kind: "place in list '\(list.name)'", reference: placeReference)
    }
    try context.store.append([.delete(.membership(membership))])
    return (list, place)
  }

  public struct Deletion: Sendable, Equatable {
    public let list: PlaceList
    public let membershipsRemoved: Int
    /// Places also in another list, or used by a task: kept.
    public let placesKept: Int
    /// Places that were only in this list and used by no task.
    public let placesRemoved: [Place]
  }

  /// Deletes a list. Its places stay where another list or a task uses them;
  /// the rest go with it unless `keepPlaces`. One batch: all or nothing.
  /// Reads the lists, the list's places and the tasks alone where the store can.
  public func delete(_ reference: String, keepPlaces: Bool = false) throws -> Deletion {
    let list = try get(reference)
    let state = try context.state(ofLists: [list.id], tasks: true) ?? context.store.state()
    let memberships = state.memberships.filter { $0.list == list.id }.sorted { $0.place < $1.place }
    var removed: [Place] = []
    for membership in memberships where !keepPlaces {
      let elsewhere = state.memberships.contains { $0.place == membership.place && $0.list != list.id }
      if !elsewhere, state.tasks(using: membership.place).isEmpty, let place = state.places[membership.place] {
        removed.append(place)
      }
    }
    var operations: [StoreOperation] = memberships.map { .delete(.membership($0)) }
    operations += removed.map { .delete(.place($0.id)) }
    operations.append(.delete(.list(list.id)))
    // Kept 30 days: the list, every membership, and the places that went with it.
    let label = "deleted list '\(list.name)'" + (removed.isEmpty ? "" : " and \(removed.count) place\(removed.count == 1 ? "" : "s") only it held")
    operations += UndoJournal(context: context).record(
      label, restoring: [.list(list)] + removed.map { .place($0) } + memberships.map { .membership($0) })
    try context.store.append(operations)
    return Deletion(
      list: list, membershipsRemoved: memberships.count, placesKept: memberships.count - removed.count,
      placesRemoved: removed)
  }

  public struct Entry: Sendable, Equatable {
    public let place: Place
    /// Every list (among those asked for) the place is in, by name.
    public let lists: [String]
  }

  /// One list, or the Combined view of several: each place once, A–Z.
  /// Reads the lists and their places alone where the store can.
  public func show(_ references: [String]) throws -> (lists: [PlaceList], entries: [Entry]) {
    let named = try self.lists()
    var lists: [PlaceList] = []
    for reference in references {
      let list = try named.list(reference)
      if !lists.contains(list) { lists.append(list) }
    }
    let state = try context.state(ofLists: lists.map(\.id)) ?? context.store.state()
    let wanted = Dictionary(uniqueKeysWithValues: lists.map { ($0.id, $0.name) })
    var byPlace: [PlaceID: [String]] = [:]
    for membership in state.memberships {
      if let name = wanted[membership.list] { byPlace[membership.place, default: []].append(name) }
    }
    let entries = byPlace.compactMap { id, names in
      state.places[id].map { Entry(place: $0, lists: names.sorted()) }
    }.sorted { PlaceSearch.alphabetical($0.place, $1.place) }
    return (lists, entries)
  }
}
