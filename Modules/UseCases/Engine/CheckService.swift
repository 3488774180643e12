import Domain
import Foundation
import Persistence

/// "What would fire here?": the counting task locations whose radius
/// contains a point, nearest first.
public struct CheckService: Sendable {
  let context: EngineContext

  public struct Hit: Sendable, Equatable {
    public let task: ReminderTask
    public let location: TaskLocation
    /// 1-based priority of the location within its task.
    public let priority: Int
    public let center: Coordinate
    public let distance: Double
  }

  public func check(at point: Coordinate) throws -> [Hit] {
    try hits(at: point) { state, task, now in Set(state.firingLocations(of: task, at: now, in: context.timeZone).map(\.id)) }
  }

  /// The places that contain the point and would fire but for their
  /// opening hours: tasks only for open hours, their place closed now.
  public func waiting(at point: Coordinate) throws -> [Hit] {
    try hits(at: point) { state, task, now in
      guard task.onlyWhileOpen else { return [] }
      let firing = Set(state.firingLocations(of: task, at: now, in: context.timeZone).map(\.id))
      return Set(task.countingLocations(at: now).map(\.id)).subtracting(firing)
    }
  }

  /// The locations `chosen` picks of each task whose radius contains the point, nearest first.
  /// Reads only the tasks near the point where the store can (`PartialReading`).
  private func hits(at point: Coordinate, chosen: (StoreState, ReminderTask, Date) -> Set<LocationID>) throws -> [Hit] {
    let state = try context.state(near: point)
    let now = context.clock.now()
    var hits: [Hit] = []
    for task in state.tasks.values {
      let counting = chosen(state, task, now)
      for (index, location) in task.locations.enumerated() where counting.contains(location.id) {
        guard let center = state.coordinate(of: location) else { continue }
        let distance = center.distance(to: point)
        if distance <= location.radius {
          hits.append(Hit(task: task, location: location, priority: index + 1, center: center, distance: distance))
        }
      }
    }
    return hits.sorted { ($0.distance, $0.task.id, $0.priority) < ($1.distance, $1.task.id, $1.priority) }
  }
}
