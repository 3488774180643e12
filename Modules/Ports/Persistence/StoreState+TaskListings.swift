import Domain

extension StoreState {
  /// Task `id` as a listing shows it, its places as held now; nil for a task not held.
  public func listing(of id: TaskID) -> TaskListing? {
    guard let task = tasks[id] else { return nil }
    return TaskListing(
      id: id, title: task.title, state: task.state, createdAt: task.createdAt, onlyWhileOpen: task.onlyWhileOpen,
      locations: task.locations.map { location in
        let placeID: PlaceID? = if case .place(let id) = location.target { id } else { nil }
        let place = placeID.flatMap { places[$0] }
        return TaskListing.Location(
          id: location.id, place: placeID, placeName: place?.name, center: coordinate(of: location), radius: location.radius,
          enabled: location.enabled, hours: place?.provider?.hours)
      })
  }

  /// Every task held as a listing shows it: what `taskListings()` answers from a state read whole.
  public var taskListings: [TaskListing] { tasks.keys.compactMap(listing(of:)) }
}
