import Domain
import Foundation
import Geofencing

extension ArrivalService {
  /// A significant-change update: replans when the fix is good enough, the
  /// person moved far enough and enough time passed.
  public func significantChange(_ point: Coordinate, accuracy: Double) -> [ArrivalEvent] {
    lock.withLock {
      let now = context.clock.now()
      lastPosition = point
      visits.observe(point, accuracy: accuracy)
      switch ReplanPolicy(config: planner.config).decide(fix: point, accuracy: accuracy, at: now, lastPlan: lastPlan) {
      case .keep(let reason): return [.planKept(reason)]
      case .replan(let reason): return replan(from: point, reason: reason)
      }
    }
  }

  /// Tasks changed (added, done, snoozed, moved): replan from the last known position.
  public func tasksChanged() -> [ArrivalEvent] {
    lock.withLock {
      guard let origin = lastPosition ?? lastPlan?.origin else { return [.planKept("no position known yet")] }
      var events: [ArrivalEvent] = []
      if var running = session?.state {
        let live = Set(destinations(state: context.store.state(), now: context.clock.now()).map(\.task))
        for task in Set(running.pending.map(\.task)) where !live.contains(task) {
          events += handleSession(running.settle(task: task))
        }
        if session != nil { session?.state = running }
      }
      return events + replan(from: origin, reason: "tasks changed")
    }
  }

  /// Plans from `origin` and installs only the difference. Called with the lock held.
  func replan(from origin: Coordinate, reason: String) -> [ArrivalEvent] {
    let now = context.clock.now()
    guard permissions.canMonitorRegions else {
      return [.degraded("no regions installed: " + (permissions.explanation.first ?? "monitoring unavailable"))]
    }
    let installed = monitor.monitoredRegions().filter(Self.isOurs)
    // Capacity not ours (other features) is never used.
    let foreign = monitor.monitoredRegions().count - installed.count
    let next = planner.plan(from: origin, candidates: candidates(near: origin, now: now), freeCapacity: monitor.capacity - foreign)
    let (add, remove) = next.changes(from: installed)
    for id in remove { monitor.stopMonitoring(id) }
    var events: [ArrivalEvent] = []
    var added: [String] = []
    for region in add {
      do {
        try monitor.startMonitoring(region)
        added.append(region.id)
        // The OS reports no entry for a region registered while inside it.
        if region.center.distance(to: origin) <= region.radius {
          monitor.requestState(region.id)
          events.append(.stateRequested(region.id))
        }
      } catch {
        events.append(.installFailed("\(region.id): \(error)"))
      }
    }
    plan = next
    lastPlan = (origin, now)
    if significantChangesOn, !config.follow.wantsSignificantChanges {
      // They gave the first position; from here the edge, followed positions and visits move coverage.
      precise.stopSignificantChanges()
      significantChangesOn = false
    }
    nextSnoozeEnd = context.store.state().tasks.values.compactMap { task -> Date? in
      if case .snoozed(let until) = task.state, until > now { return until }
      return nil
    }.min()
    return [.planned(next, added: added, removed: remove, reason: reason)] + events + updateFollowing()
  }
}
