import Domain
import Foundation
import Persistence

/// Turns a stream of fixes alone into arrivals (scripted walks, foreground
/// use): a task fires once per visit, when a
/// fix falls inside one of its counting places. A visit ends only when the
/// person is `exitMargin` metres beyond the radius, so jitter at the boundary
/// does not fire again. Only live (active, not snoozed) tasks fire.
public final class FixArrivalService: @unchecked Sendable {
  public struct Arrival: Sendable, Equatable {
    public let at: Date
    public let task: ReminderTask
    public let location: TaskLocation
    public let priority: Int
    public let placeName: String?
    public let distance: Double
  }

  private let context: EngineContext
  private let exitMargin: Double
  private let lock = NSLock()
  /// Task → the location whose visit is in progress.
  private var visiting: [TaskID: LocationID] = [:]

  public init(context: EngineContext, exitMargin: Double = 25) {
    self.context = context
    self.exitMargin = exitMargin
  }

  /// Feeds one fix; returns the tasks that fire, nearest place first.
  public func observe(_ point: Coordinate) -> [Arrival] {
    let state = context.store.state()
    let now = context.clock.now()
    lock.lock()
    defer { lock.unlock() }
    var arrivals: [Arrival] = []
    for task in state.tasks.values.sorted(by: { $0.id < $1.id }) {
      let counting = task.countingLocations(at: now)
      let measured = counting.compactMap { location in
        state.coordinate(of: location).map { (location, $0.distance(to: point)) }
      }
      if let current = visiting[task.id] {
        let stillNear = measured.contains { $0.0.id == current && $0.1 <= $0.0.radius + exitMargin }
        if stillNear { continue }
        visiting[task.id] = nil
      }
      guard let (location, distance) = measured.filter({ $0.1 <= $0.0.radius }).min(by: { $0.1 < $1.1 }) else { continue }
      visiting[task.id] = location.id
      var placeName: String?
      if case .place(let id) = location.target { placeName = state.places[id]?.name }
      let priority = (task.locations.firstIndex { $0.id == location.id } ?? 0) + 1
      arrivals.append(Arrival(at: now, task: task, location: location, priority: priority, placeName: placeName, distance: distance))
    }
    return arrivals.sorted { $0.distance < $1.distance }
  }
}
