import Domain
import Foundation

/// Once per visit: a task fires on arriving at one of its destinations and
/// not again until the person has left it by `exitMargin` beyond its radius,
/// so lingering or jitter at the boundary never fires twice.
public struct VisitTracker: Sendable {
  public let exitMargin: Double
  /// A task does not fire again at the same place this soon, whatever the
  /// OS says: late entry events arrive after the person has left.
  public let refireCooldown: TimeInterval
  private var visits: [TaskID: Destination] = [:]
  private var lastFired: [TaskID: (location: LocationID, at: Date)] = [:]
  /// Visits counted per task, so each reminder of a task has its own id.
  public private(set) var visitCount: [TaskID: Int] = [:]

  public init(exitMargin: Double = 50, refireCooldown: TimeInterval = 300) {
    self.exitMargin = exitMargin
    self.refireCooldown = refireCooldown
  }

  public func isVisiting(_ task: TaskID) -> Bool { visits[task] != nil }

  /// Records an arrival; false when the task's visit is already under way,
  /// or it fired at this place less than the cooldown ago.
  public mutating func arrive(_ destination: Destination, at now: Date) -> Bool {
    guard visits[destination.task] == nil else { return false }
    if let last = lastFired[destination.task], last.location == destination.location, now.timeIntervalSince(last.at) < refireCooldown {
      return false
    }
    visits[destination.task] = destination
    lastFired[destination.task] = (destination.location, now)
    visitCount[destination.task, default: 0] += 1
    return true
  }

  /// Ends the visits the point is clearly outside of.
  public mutating func observe(_ point: Coordinate, accuracy: Double = 0) {
    for (task, destination) in visits where destination.center.distance(to: point) - accuracy > destination.radius + exitMargin {
      visits[task] = nil
    }
  }

  /// The OS says the person left the region: the visit is over.
  public mutating func left(_ destination: Destination) {
    if visits[destination.task] == destination { visits[destination.task] = nil }
  }

  public mutating func forget(_ task: TaskID) { visits[task] = nil }

  /// What a restart or another worker needs to go on: the visits under
  /// way (reminded and not left), when each task last fired where, and
  /// how many visits each counted (part of its reminders' ids).
  public struct Saved: Codable, Equatable, Sendable {
    public struct Entry: Codable, Equatable, Sendable {
      /// The location of the visit under way, if one is.
      public var visiting: LocationID?
      public var lastFired: LocationID?
      public var lastFiredAt: Date?
      public var visits: Int
    }
    public var tasks: [String: Entry]
    public init(tasks: [String: Entry] = [:]) { self.tasks = tasks }
  }

  /// This tracker's state for the tasks `keeping` accepts (those that
  /// still exist: a deleted task's counts are never needed again).
  public func saved(keeping: (TaskID) -> Bool) -> Saved {
    var tasks: [String: Saved.Entry] = [:]
    for task in Set(visits.keys).union(lastFired.keys).union(visitCount.keys) where keeping(task) {
      tasks[task.rawValue] = Saved.Entry(
        visiting: visits[task]?.location, lastFired: lastFired[task]?.location, lastFiredAt: lastFired[task]?.at, visits: visitCount[task] ?? 0)
    }
    return Saved(tasks: tasks)
  }

  /// Puts back a saved state; a visit under way whose destination
  /// `destination` no longer finds (the place moved or left the task) ends.
  public mutating func restore(_ saved: Saved, destination: (TaskID, LocationID) -> Destination?) {
    visits = [:]
    lastFired = [:]
    visitCount = [:]
    for (raw, entry) in saved.tasks {
      let task = TaskID(raw)
      if let location = entry.visiting, let found = destination(task, location) { visits[task] = found }
      if let location = entry.lastFired, let at = entry.lastFiredAt { lastFired[task] = (location, at) }
      if entry.visits > 0 { visitCount[task] = entry.visits }
    }
  }
}
