import Domain
import Foundation
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

  /// The opening hours of the place a location is tied to, when its
  /// provider gave them in a form understood (nil: counts as open).
  public func hours(of location: TaskLocation) -> OpeningHours? {
    guard case .place(let id) = location.target, let text = places[id]?.provider?.hours else { return nil }
    return OpeningHours(text)
  }

  /// The locations of `task` that can fire at `now`: its counting ones,
  /// less, for a task only for open hours, those whose place is closed then
  /// (local time in `timeZone`).
  public func firingLocations(of task: ReminderTask, at now: Date, in timeZone: TimeZone) -> [TaskLocation] {
    let counting = task.countingLocations(at: now)
    guard task.onlyWhileOpen else { return counting }
    return counting.filter { hours(of: $0)?.isOpen(at: now, in: timeZone) ?? true }
  }

  /// When the next place of a live task only for open hours opens or closes.
  func nextOpeningChange(after now: Date, in timeZone: TimeZone) -> Date? {
    tasks.values.filter(\.onlyWhileOpen).flatMap { $0.countingLocations(at: now) }
      .compactMap { hours(of: $0)?.nextChange(after: now, in: timeZone) }.min()
  }

  /// Tasks with a location tied to `place`.
  func tasks(using place: PlaceID) -> [ReminderTask] {
    tasks.values.filter { task in task.locations.contains { $0.target == .place(place) } }
      .sorted { $0.id < $1.id }
  }
}
