import Domain
import Foundation
import Geofencing
import Notifications
import Persistence

extension ArrivalMachine {
  /// A region event from the OS. Arrival regions fire; approach zones start
  /// a precise session; ids the current plan does not know are ignored.
  mutating func regionEvent(_ event: RegionEvent) {
    if let pending = resume, pending.id == event.id {
      guard event.kind == .exited || event.kind == .outside else { return }
      uninstall(pending.id)
      resume = nil
      startSession(in: pending.zone)
      return
    }
    guard let region = plan.region(event.id) else {
      report(.ignoredRegion(event.id, reason: "not in the current plan"))
      return
    }
    if region.kind == .edge {
      // The OS now holds the person outside the edge: it reports no other
      // exit until its position comes back in. Until a new plan or that
      // entry, later wakes look again (`recheckSpentEdge`).
      edgeSpent = event.kind == .exited || event.kind == .outside ? region.id : nil
    }
    let crossing = event.kind == .entered || (region.kind == .edge && event.kind == .exited)
    if crossing, let still = stillFor() {
      report(.planKept("\(region.id) crossed after \(Int(still / 60)) min of stillness: the OS's position moved, not the person"))
      let now = now
      stillVetoed.removeAll { now.timeIntervalSince($0.at) > Self.vetoRetakeWindow }
      stillVetoed.append((event, now))
      muteWhileStill(region)
      return
    }
    switch (region.kind, event.kind) {
    case (.arrival, .entered), (.arrival, .inside):
      arrivalReported(region)
    case (.arrival, .exited):
      // A confirmed visit ends on a fix clearly outside, not on the OS's
      // word: its position wanders out and back while the person stays.
      if !config.session.confirmArrivals { visits.left(region.destinations[0]) }
    case (.approach, .entered), (.approach, .inside):
      // Followed positions already watch the zone's places, for no GPS.
      if followIsCurrent(), !config.follow.sessionOnApproach {
        followClosely()
        report(.planKept("\(region.id) entered while following: the followed positions confirm"))
        return
      }
      startSession(in: region)
    case (.approach, .exited), (.approach, .outside), (.arrival, .outside):
      return
    case (.edge, .exited), (.edge, .outside):
      edgeExited(quietly: false)
    case (.edge, .entered), (.edge, .inside):
      return
    }
  }

  /// Which crossings of a planned region the OS should deliver: only those
  /// `regionEvent` acts on. Each delivery to a suspended app is a
  /// background wake, and the OS's position wandering across the places
  /// next to where a person sits would otherwise wake it on the way out as
  /// often as on the way in.
  func notifying(_ region: PlannedRegion) -> PlannedRegion {
    guard config.coverage.quietExits else { return region }
    switch region.kind {
    // A confirmed visit ends on a fix, not on the OS's exit.
    case .arrival: return region.notifying(entry: true, exit: !config.session.confirmArrivals)
    case .approach: return region.notifying(entry: true, exit: false)
    // Leaving replans; coming back in ends a spent edge.
    case .edge: return region
    }
  }

  /// Asks one fix to replan after the edge was left, unless one is on its
  /// way, the last found no move, followed positions move the plan anyway
  /// or the budget has none left.
  mutating func edgeExited(quietly: Bool) {
    guard wakeFixAsked == nil, coarseWakeAsked == nil else { return }
    if let quiet = wakeQuietUntil, now < quiet {
      if !quietly { report(.planKept("the last wake-up fix found no move; waiting before the next")) }
      return
    }
    if followIsCurrent() {
      if !quietly { report(.planKept("followed positions move the plan; no wake-up fix")) }
      return
    }
    guard budget.chargeFix(config.session.wakeFixCharge, at: now, config: config.session) else {
      return askCoarseWake(quietly: quietly)
    }
    saveBudget()
    wakeFixAsked = now
    command(.singleFix)
    report(.wakeFixRequested)
  }

  /// A wake while the edge is spent and the person moves: the exit that
  /// spent it was let be (stillness, a wake-up fix near where the plan was
  /// made, no budget), so nothing would move coverage if the person has
  /// since walked off. Looks again, within the same backoff as the exit.
  mutating func recheckSpentEdge() {
    guard let spent = edgeSpent, plan.region(spent) != nil, stillSince == nil, session == nil else { return }
    edgeExited(quietly: true)
  }

  /// An arrival region reported the person inside. With
  /// `confirmArrivals` one precise fix confirms it first, since the OS's
  /// position can be hundreds of metres off: a fix inside fires, one near
  /// but not conclusive starts a session, one far away fires nothing and
  /// quiets that place's entries for a while. No budget for the fix: nothing
  /// fires. (Regions and sessions need the same permission, so there is no
  /// case of regions without fixes.)
  mutating func arrivalReported(_ region: PlannedRegion) {
    let destination = region.destinations[0]
    guard config.session.confirmArrivals else { return fire(destination, distance: nil) }
    requestConfirmations([destination], reportedBy: region.id)
  }

  /// Asks one fix to confirm that the person is at any of `destinations`;
  /// the fix answers all of them and is charged once.
  mutating func requestConfirmations(_ destinations: [Destination], reportedBy id: String) {
    let wanted = destinations.filter(wantsConfirming)
    guard !wanted.isEmpty else { return }
    // A running session confirms them with its own fixes.
    if session != nil {
      for destination in wanted { startSession(in: confirmationZone(destination)) }
      return
    }
    guard budget.chargeFix(config.session.wakeFixCharge, at: now, config: config.session) else {
      return report(.sessionRefused("no tracking budget left to confirm an arrival"))
    }
    saveBudget()
    for destination in wanted { confirming[destination] = now }
    command(.singleFix)
    report(.confirmationRequested(id))
  }

  /// Whether a sign that the person is at `destination` is worth a fix.
  func wantsConfirming(_ destination: Destination) -> Bool {
    // Already announced and not left: the OS saw its own position wander back in.
    guard !visits.isVisiting(destination.task) else { return false }
    // Done or snoozed since the plan was made: nothing to confirm.
    guard isLive(destination) else { return false }
    if let quiet = confirmQuiet[destination], now < quiet.until { return false }
    return confirming[destination] == nil
  }

  /// A fix that shows the person inside beyond doubt: precise enough for
  /// the radius, or its whole accuracy circle inside.
  func conclusivelyInside(_ destination: Destination, distance: Double, accuracy: Double) -> Bool {
    distance <= destination.radius
      && (accuracy <= min(config.session.fixMaxAccuracy, destination.radius) || distance + accuracy <= destination.radius)
  }

  /// The zone a session watches to confirm one destination.
  func confirmationZone(_ destination: Destination) -> PlannedRegion {
    PlannedRegion(
      id: "wh:confirm:" + destination.location.rawValue, kind: .approach, center: destination.center,
      radius: max(destination.radius + planner.config.approachMargin, planner.config.minimumApproachRadius), destinations: [destination])
  }

  /// A fix answers the arrival entries waiting for one: inside fires (a
  /// GPS fix as accurate as a session asks; a reported fix only beyond
  /// doubt, since it may be the phone's Wi-Fi or cell position); far beyond
  /// doubt fires nothing and quiets the place; a GPS fix in between starts
  /// a session, unless it is coarser than a session accepts and the device
  /// is still (indoors: `sessionOnVagueFixWhileStill`); a reported one as
  /// coarse as a Wi-Fi position leaves the entry waiting for a better fix.
  mutating func confirmArrivals(with point: Coordinate, accuracy: Double, gps: Bool) {
    for (destination, _) in confirming.sorted(by: { $0.key.location.rawValue < $1.key.location.rawValue }) {
      let distance = point.distance(to: destination.center)
      let inside =
        gps
        ? distance <= destination.radius && accuracy <= max(config.session.fixMaxAccuracy, destination.radius)
        : conclusivelyInside(destination, distance: distance, accuracy: accuracy)
      if inside {
        confirming[destination] = nil
        confirmQuiet[destination] = nil
        fire(destination, distance: distance)
      } else if distance - accuracy > destination.radius + planner.config.approachMargin {
        confirming[destination] = nil
        let base = config.session.wakeFixBackoff
        let wait = min(max((confirmQuiet[destination]?.wait ?? 0) * 2, base), config.session.wakeFixBackoffMax)
        confirmQuiet[destination] = (wait, now.addingTimeInterval(wait))
      } else if gps || accuracy <= config.session.fixMaxAccuracy {
        // Close, or a GPS fix too vague to say: a session decides.
        confirming[destination] = nil
        // A still phone with a fix this coarse is indoors: a session would get no better.
        if !config.session.sessionOnVagueFixWhileStill, stillSince != nil, accuracy > config.session.fixMaxAccuracy {
          continue
        }
        startSession(in: confirmationZone(destination))
      }
    }
  }

  /// Whether the destination's task can still fire there (not done, not snoozed, the place still one of its own).
  func isLive(_ destination: Destination) -> Bool {
    guard let task = world.state.tasks[destination.task] else { return false }
    return world.state.firingLocations(of: task, at: now, in: timeZone).contains { $0.id == destination.location }
  }

  /// Fires a destination's task once per visit if it is still live.
  mutating func fire(_ destination: Destination, distance: Double?) {
    let state = world.state
    guard let task = state.tasks[destination.task],
      state.firingLocations(of: task, at: now, in: timeZone).contains(where: { $0.id == destination.location })
    else { return }
    guard visits.arrive(destination, at: now) else { return }
    effects.append(.saveVisits(savedVisits(of: state)))
    var placeName: String?
    if case .place(let id)? = task.location(destination.location)?.target { placeName = state.places[id]?.name }
    effects.append(
      .notify(
        ArrivalEffect.Reminder(
          task: task, location: destination.location, placeName: placeName, distance: distance, at: now,
          visit: visits.visitCount[task.id] ?? 1, allowed: permissions.notifications)))
  }

  /// The visits as `saveVisits` writes them, for the tasks `state` still holds.
  func savedVisits(of state: StoreState) -> VisitTracker.Saved { visits.saved { state.tasks[$0] != nil } }
}
