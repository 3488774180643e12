import Domain
import Foundation
import Geofencing

extension ArrivalMachine {
  /// A reduced-accuracy fix (Wi-Fi or cell, no GPS) while following. A
  /// Wi-Fi-grade one moves the plan with the person when they walked away
  /// from where it was made, and one inside a watched place asks one GPS fix
  /// to confirm it (the position may be tens of metres off). Cell-grade
  /// fixes say too little and are ignored.
  mutating func reducedFix(_ point: Coordinate, accuracy: Double) {
    if coarseWakeAsked != nil, accuracy.isFinite, accuracy <= planner.config.replanMaxAccuracy {
      coarseWakeAsked = nil
      wakeFixArrived(point, accuracy: accuracy)
      updateFollowing()
    }
    guard accuracy.isFinite, accuracy <= config.follow.maxAccuracy else { return cellGradeFix(point, accuracy: accuracy) }
    lastReducedAt = now
    lastPosition = point
    lastFollowed = (point, accuracy)
    silenceAsked = false
    visits.observe(point, accuracy: accuracy)
    if let last = lastPlan, last.origin.distance(to: point) >= config.follow.replanDistance,
      now.timeIntervalSince(last.at) >= Self.followReplanInterval
    {
      replan(from: point, reason: "followed the person")
    }
    let inside = plan.destinations.filter { point.distance(to: $0.center) <= $0.radius }
    // Inside beyond doubt (the whole accuracy circle): no GPS needed.
    let certain = inside.filter { point.distance(to: $0.center) + accuracy <= $0.radius && isLive($0) }
    for destination in certain { fire(destination, distance: point.distance(to: destination.center)) }
    let doubtful = inside.filter { !certain.contains($0) }
    requestConfirmations(doubtful, reportedBy: Self.followID)
  }

  /// A cell-grade position while following: one surely outside the
  /// planned area asks what the edge's exit would (`leftPlannedArea`);
  /// otherwise `FollowConfig.cellWakeAfter` decides.
  mutating func cellGradeFix(_ point: Coordinate, accuracy: Double) {
    if leftPlannedArea(vaguely: point, accuracy: accuracy) { return edgeExited(quietly: true) }
    let after = config.follow.cellWakeAfter
    guard after > 0, following, stillSince == nil, session == nil, let last = lastPlan,
      now.timeIntervalSince(last.at) >= after, lastReducedAt.map({ now.timeIntervalSince($0) >= after }) ?? true
    else { return }
    edgeExited(quietly: true)
  }

  /// Followed positions stopped coming (`FollowConfig.silenceAfter`):
  /// the person slowed or stopped where the last one placed them, and a
  /// place within its accuracy circle may be where they stopped.
  mutating func followedSilence() {
    let after = config.follow.silenceAfter
    guard after > 0, following, !silenceAsked, let last = lastReducedAt, now.timeIntervalSince(last) >= after,
      let (here, accuracy) = lastFollowed
    else { return }
    silenceAsked = true
    let near = candidates(near: here).filter { here.distance(to: $0.center) <= $0.radius + accuracy }
    requestConfirmations(near, reportedBy: Self.silenceID)
  }

  /// Plans from followed positions no more often than this, seconds.
  static let followReplanInterval: TimeInterval = 30
  /// What asked a confirming fix, when no region did (`confirmationRequested`'s id).
  static let followID = "wh-follow"
  static let visitID = "wh-visit"
  static let stopID = "wh-stop"
  static let silenceID = "wh-silence"
  static let firstPlanID = "wh-first"

  /// The OS's visit monitoring reported a stay. One under way, placed at
  /// Wi-Fi grade, moves the plan there if it was made elsewhere and asks one
  /// fix to confirm every live destination whose radius the stay's
  /// accuracy circle reaches; a visit that already ended fires nothing.
  mutating func visitReported(_ point: Coordinate, accuracy: Double, departed: Date?) {
    guard config.follow.visits, departed == nil else { return }
    guard accuracy.isFinite, accuracy <= config.follow.maxAccuracy else {
      // A stay began, but the OS cannot say where: one fix can.
      locate(reportedBy: Self.visitID)
      return
    }
    lastPosition = point
    if lastPlan.map({ $0.origin.distance(to: point) >= config.follow.replanDistance }) ?? true {
      replan(from: point, reason: "a visit began")
    }
    let near = candidates(near: point).filter { point.distance(to: $0.center) <= $0.radius + accuracy }
    requestConfirmations(near, reportedBy: Self.visitID)
  }

  /// Asks one fix to find where a stay began that the OS placed too
  /// coarsely to use (a cell-grade visit): a stop is where errands happen,
  /// and a stay of minutes outlasts the fix. `located` answers it.
  /// Returns whether a fix was asked (or one is on its way).
  @discardableResult
  mutating func locate(reportedBy id: String) -> Bool {
    guard locateAsked == nil, session == nil else { return true }
    guard budget.chargeFix(config.session.wakeFixCharge, at: now, config: config.session) else {
      report(.sessionRefused("no tracking budget left to locate " + (id == Self.firstPlanID ? "the person" : "a stay")))
      return false
    }
    saveBudget()
    locateAsked = now
    command(.singleFix)
    report(.confirmationRequested(id))
    return true
  }

  /// The fix `locate` asked for: the plan moves there if it was made
  /// elsewhere, and every live destination the fix's accuracy circle
  /// reaches is answered by it as an arrival entry would be.
  mutating func located(_ point: Coordinate, accuracy: Double) {
    locateAsked = nil
    if lastPlan == nil {
      replan(from: point, reason: "the first position, from a fix")
    } else if let last = lastPlan, last.origin.distance(to: point) >= config.follow.replanDistance {
      replan(from: point, reason: "a stay began")
    }
    let near = candidates(near: point).filter { point.distance(to: $0.center) <= $0.radius + accuracy && wantsConfirming($0) }
    for destination in near { confirming[destination] = now }
    if !near.isEmpty { confirmArrivals(with: point, accuracy: accuracy, gps: true) }
  }

  /// Follows the person with reduced-accuracy updates while they move, the
  /// plan's edge is small (dense destinations) and power is not short; stops
  /// otherwise. Called after anything that changes one of those.
  mutating func updateFollowing() {
    let edge = plan.edge
    let wanted =
      config.follow.enabled && permissions.canMonitorRegions && stillSince == nil
      && edge.map { $0.radius <= config.follow.edgeRadius } ?? false
      && !power.lowPowerMode && power.battery >= config.session.lowBattery && power.thermal != .critical
    let reduced = wanted || coarseWakeAsked != nil || holdingAwake
    if reduced != reducedOn {
      reducedOn = reduced
      if !reduced { closeFollowUntil = nil }
      command(reduced ? .startReduced(distanceFilter: currentFilter) : .stopReduced)
    }
    guard wanted != following else { return }
    following = wanted
    if !wanted {
      lastReducedAt = nil
      lastFollowed = nil
    }
    report(.following(wanted))
  }

  /// The allowance cannot pay a GPS wake-up fix after the edge was left:
  /// the OS's own position (reduced-accuracy updates, Wi-Fi or cell, no GPS
  /// and not charged to the allowance) replans instead, if one at least as
  /// accurate as a significant change's comes within a minute. Without it
  /// a day whose allowance ran out kept its last plan for hours while the
  /// person went on.
  mutating func askCoarseWake(quietly: Bool) {
    guard config.follow.enabled, permissions.canMonitorRegions else {
      if !quietly { report(.planKept("no tracking budget left for a wake-up fix")) }
      return
    }
    coarseWakeAsked = now
    updateFollowing()
    report(.planKept("no tracking budget left for a wake-up fix: the OS's own position will place the person"))
  }

  /// Whether followed positions arrived recently enough to stand in for the
  /// edge region's wake-up fix.
  func followIsCurrent() -> Bool {
    guard following, let last = lastReducedAt else { return false }
    return now.timeIntervalSince(last) <= Self.followFreshness
  }

  static let followFreshness: TimeInterval = 60
  /// A stop is judged by the last followed position up to this old: the
  /// motion history says "still" only a while after the person stopped,
  /// and a person standing still moves the OS's position too little to pass
  /// the distance filter.
  static let stopLookback: TimeInterval = 300

  var currentFilter: Double { closeFollowUntil == nil ? config.follow.distanceFilter : config.follow.approachFilter }

  /// An approach zone was entered while following: positions as often as
  /// the OS gives them for `approachWindow`.
  mutating func followClosely() {
    guard config.follow.approachWindow > 0, reducedOn, config.follow.approachFilter < config.follow.distanceFilter else { return }
    let starting = closeFollowUntil == nil
    closeFollowUntil = now.addingTimeInterval(config.follow.approachWindow)
    if starting { command(.startReduced(distanceFilter: currentFilter)) }
  }

  /// The window after an approach zone's entry ended: the usual filter again.
  mutating func relaxCloseFollow() {
    guard let until = closeFollowUntil, now >= until else { return }
    closeFollowUntil = nil
    if reducedOn { command(.startReduced(distanceFilter: currentFilter)) }
  }
}
