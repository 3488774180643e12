import Domain
import Foundation
import Geofencing

extension ArrivalMachine {
  /// A significant-change update: replans when the fix is good enough, the
  /// person moved far enough and enough time passed.
  mutating func significantChange(_ point: Coordinate, accuracy: Double) {
    lastPosition = point
    visits.observe(point, accuracy: accuracy)
    switch ReplanPolicy(config: planner.config).decide(fix: point, accuracy: accuracy, at: now, lastPlan: lastPlan) {
    case .keep(let reason):
      guard lastPlan == nil else {
        if leftPlannedArea(vaguely: point, accuracy: accuracy) { return edgeExited(quietly: false) }
        return report(.planKept(reason))
      }
      planFirst(vaguely: point, reason: reason)
    case .replan(let reason): replan(from: point, reason: reason)
    }
  }

  /// Whether a position too vague to plan from still puts the person
  /// outside the plan's edge by more than its accuracy: a phone that only
  /// cell towers place would otherwise move its plan only on the edge's
  /// exit, which the OS judges from the same towers and delivers minutes
  /// late. What it asks is what that exit asks (one wake-up fix).
  func leftPlannedArea(vaguely point: Coordinate, accuracy: Double) -> Bool {
    guard accuracy.isFinite, let edge = plan.edge else { return false }
    return point.distance(to: edge.center) - accuracy > edge.radius
  }

  /// No plan yet, and a position too vague to plan from (a cell tower's,
  /// where the phone has no Wi-Fi): waiting for a better one could watch
  /// nothing all day. One fix says where the person is (`located` plans
  /// from it); without the allowance for it, the vague position is planned
  /// from, since a plan made in the wrong place is corrected by its edge's
  /// exit and no plan by nothing.
  mutating func planFirst(vaguely point: Coordinate, reason: String) {
    guard locateAsked == nil else { return report(.planKept(reason + "; a fix to plan from is on its way")) }
    if !locate(reportedBy: Self.firstPlanID) { replan(from: point, reason: "a vague first position, no allowance for a fix") }
  }

  /// Tasks changed (added, done, snoozed, moved): replan from the last known position.
  mutating func tasksChanged() {
    guard let origin = lastPosition ?? lastPlan?.origin else { return report(.planKept("no position known yet")) }
    if var running = session?.state {
      let live = Set(destinations().map(\.task))
      for task in Set(running.pending.map(\.task)) where !live.contains(task) {
        handleSession(running.settle(task: task))
      }
      if session != nil { session?.state = running }
    }
    replan(from: origin, reason: "tasks changed")
  }

  /// Plans from `origin` and installs only the difference.
  mutating func replan(from origin: Coordinate, reason: String) {
    guard permissions.canMonitorRegions else {
      return report(.degraded("no regions installed: " + (permissions.explanation.first ?? "monitoring unavailable")))
    }
    let installed = installed
    // Capacity not ours (other features) is never used.
    let foreign = world.monitored.count - installed.count
    let next = planner.plan(from: origin, candidates: candidates(near: origin), freeCapacity: capacity - foreign).mapRegions(notifying)
    // Regions muted while still stay off; they go back when the device moves.
    muted.formIntersection(next.regions.map(\.id))
    let (add, remove) = next.changes(from: installed.union(muted))
    world.monitored.subtract(remove)
    world.monitored.formUnion(add.map(\.id))
    effects.append(.applyPlan(next, add: add, remove: remove, origin: origin, reason: reason))
    plan = next
    noteEdgeInstalled(add: add, origin: origin)
    lastPlan = (origin, now)
    if let spent = edgeSpent, next.region(spent) == nil { edgeSpent = nil }
    if significantChangesOn, !config.follow.wantsSignificantChanges {
      // They gave the first position; from here the edge, followed positions and visits move coverage.
      command(.stopSignificantChanges)
      significantChangesOn = false
    }
    nextTimedChange = timedChange()
    updateFollowing()
  }
}
