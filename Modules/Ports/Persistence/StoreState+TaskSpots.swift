import Domain

extension StoreState {
  /// One of a task's locations as a spatial index files it: the place it
  /// is tied to (nil for a coordinate) and its circle's box where it has a
  /// coordinate now (nil while its place is gone or has none).
  public struct TaskSpot: Equatable, Sendable {
    public let task: TaskID
    public let place: PlaceID?
    public let box: CircleBox?

    public init(task: TaskID, place: PlaceID?, box: CircleBox?) {
      (self.task, self.place, self.box) = (task, place, box)
    }
  }

  /// The spots of a task held, one per location, in order; none for a task not held.
  public func spots(of id: TaskID) -> [TaskSpot] {
    guard let task = tasks[id] else { return [] }
    return task.locations.map { location in
      let place: PlaceID? = if case .place(let place) = location.target { place } else { nil }
      return TaskSpot(task: id, place: place, box: coordinate(of: location).map { CircleBox(center: $0, radius: location.radius) })
    }
  }
}
