import Domain
import Persistence

extension StoreState {
  func task(_ reference: String) throws(DomainError) -> ReminderTask {
    try Reference.resolve(
      reference, kind: "task",
      among: tasks.values.map { .init(id: $0.id.rawValue, name: $0.title, preferred: !$0.state.isCompleted, value: $0) })
  }

  func place(_ reference: String) throws(DomainError) -> Place {
    try Reference.resolve(
      reference, kind: "place", in: places.values.map { ($0.id.rawValue, $0.name, $0) })
  }

  func list(_ reference: String) throws(DomainError) -> PlaceList {
    try Reference.resolve(
      reference, kind: "list", in: lists.values.map { ($0.id.rawValue, $0.name, $0) })
  }

  /// Where a task location is now: its coordinate, or its saved place's
  /// current coordinate (nil when the place is gone or has none).
  public func coordinate(of location: TaskLocation) -> Coordinate? {
    switch location.target {
    case .coordinate(let coordinate): return coordinate
    case .place(let id): return places[id]?.coordinate
    }
  }

  /// Tasks with a location tied to `place`.
  func tasks(using place: PlaceID) -> [ReminderTask] {
    tasks.values.filter { task in task.locations.contains { $0.target == .place(place) } }
      .sorted { $0.id < $1.id }
  }
}
