import Domain
import Foundation
import Geofencing

extension ArrivalMachine {
  /// Starts a precise session for an approach zone if permissions, power
  /// and the budget allow; a running one takes the zone in.
  mutating func startSession(in zone: PlannedRegion) {
    if var running = session?.state {
      running.join(zone)
      session?.state = running
      return
    }
    guard permissions.canRunSessions else { return report(.sessionRefused("precise sessions need Always and precise location")) }
    let limits = PowerPolicy(config: config.session).limits(for: power)
    guard limits.allowed else { return report(.sessionRefused(limits.reason)) }
    let ticket: (id: Int, granted: TimeInterval)
    do {
      ticket = try budget.reserve(limits.maxDuration, at: now, config: config.session)
    } catch {
      if config.session.retryAfterCooldown, case .tooSoon(let wait) = error { deferSession(zone, for: wait) }
      return report(.sessionRefused("\(error)"))
    }
    // Reserved durably before tracking starts, so a crash cannot hide it.
    saveBudget()
    var started = PreciseSession(zone: zone, startedAt: now, limits: limits, granted: ticket.granted, config: config.session)
    // What waited out the cooldown joins the session that starts.
    if let waiting = deferred {
      deferred = nil
      for other in waiting.zones where other.id != zone.id { started.join(other) }
      releaseHold()
    }
    session = (started, ticket.id)
    command(.startPrecise)
    report(.sessionStarted(zone: zone.id, granted: ticket.granted, limits: limits.reason))
  }

  /// A session the restart cooldown refused waits `wait` seconds, with
  /// the app kept awake to start it.
  mutating func deferSession(_ zone: PlannedRegion, for wait: TimeInterval) {
    var waiting = deferred ?? (zones: [], at: now.addingTimeInterval(wait))
    if !waiting.zones.contains(where: { $0.id == zone.id }) { waiting.zones.append(zone) }
    deferred = waiting
    if suspendsWhenIdle, !holdingAwake {
      holdingAwake = true
      updateFollowing()
    }
  }

  /// The cooldown ended: the deferred session starts for the places that
  /// still want confirming.
  mutating func startDeferred() {
    guard let waiting = deferred, now >= waiting.at, session == nil else { return }
    deferred = nil
    releaseHold()
    let zones = waiting.zones.compactMap { zone -> PlannedRegion? in
      let wanted = zone.destinations.filter { !visits.isVisiting($0.task) && isLive($0) }
      return wanted.isEmpty ? nil : PlannedRegion(id: zone.id, kind: zone.kind, center: zone.center, radius: zone.radius, destinations: wanted)
    }
    guard let first = zones.first else { return }
    deferred = (Array(zones.dropFirst()), now)
    startSession(in: first)
    // Refused again (budget, power): nothing waits any longer.
    if session == nil {
      deferred = nil
      releaseHold()
    }
  }

  /// A precise fix: during a session it may fire; after leaving the
  /// coverage edge it replans; during a long session it keeps the plan
  /// following the person.
  mutating func preciseFix(_ point: Coordinate, accuracy: Double) {
    lastPosition = point
    visits.observe(point, accuracy: accuracy)
    if wakeFixAsked != nil, accuracy <= planner.config.replanMaxAccuracy {
      wakeFixAsked = nil
      wakeFixArrived(point, accuracy: accuracy)
    }
    if !confirming.isEmpty { confirmArrivals(with: point, accuracy: accuracy, gps: true) }
    if locateAsked != nil, accuracy <= planner.config.replanMaxAccuracy { located(point, accuracy: accuracy) }
    guard var running = session?.state else { return }
    let stops = running.fix(point, accuracy: accuracy, at: now)
    session?.state = running
    handleSession(stops)
    // Only a fix the session found plausible moves the plan: outliers jump kilometres.
    if planner.config.replanDuringSessions, running.lastPlausibleFix == point, let last = lastPlan,
      last.origin.distance(to: point) >= planner.config.sessionReplanDistance, now.timeIntervalSince(last.at) >= 30
    {
      replan(from: point, reason: "moved during a session")
    }
  }

  /// The wake-up fix after an edge exit. Near where the plan was made, the
  /// exit came from the OS's wandering position: keep the plan and wait
  /// longer before trusting the next exit.
  mutating func wakeFixArrived(_ point: Coordinate, accuracy: Double) {
    let edge = plan.edge
    if let last = lastPlan, let edge, last.origin.distance(to: point) + accuracy <= edge.radius + config.exitMargin {
      let base = config.session.wakeFixBackoff
      wakeBackoff = min(max(wakeBackoff * 2, base), config.session.wakeFixBackoffMax)
      wakeQuietUntil = now.addingTimeInterval(wakeBackoff)
      return report(.planKept("the wake-up fix is where the plan was made"))
    }
    wakeBackoff = 0
    wakeQuietUntil = nil
    replan(from: point, reason: "left the coverage edge")
  }

  /// Time passed: stops a session whose fixes stopped or whose time is up,
  /// and replans when a snoozed task wakes up.
  mutating func tick() {
    if var running = session?.state {
      let stops = running.tick(at: now)
      session?.state = running
      handleSession(stops)
    }
    startDeferred()
    // A confirming fix that never came (no GPS): the entry fires nothing.
    confirming = confirming.filter { now.timeIntervalSince($0.value) < config.session.noFixTimeout }
    // A wake-up fix that never came (no GPS, a phone that did not answer)
    // must not silence every later edge exit.
    if let asked = wakeFixAsked, now.timeIntervalSince(asked) >= config.session.noFixTimeout { wakeFixAsked = nil }
    if let asked = locateAsked, now.timeIntervalSince(asked) >= config.session.noFixTimeout { locateAsked = nil }
    if let asked = coarseWakeAsked, now.timeIntervalSince(asked) >= Self.followFreshness {
      coarseWakeAsked = nil
      updateFollowing()
    }
    followedSilence()
    if let wake = nextTimedChange, now >= wake, let origin = lastPosition ?? lastPlan?.origin {
      replan(from: origin, reason: "a snooze ended or a place opened or closed")
    }
  }

  /// The program is stopping cleanly: a running session ends and is
  /// charged what it used, not the full reservation a crash would cost.
  mutating func shutdown() {
    guard var running = session?.state else { return }
    let stops = running.shutdown(at: now)
    session?.state = running
    handleSession(stops)
  }

  mutating func powerChanged(_ state: PowerState) {
    power = state
    updateFollowing()
    guard var running = session?.state else { return }
    let stops = running.powerChanged(PowerPolicy(config: config.session).limits(for: state), at: now)
    session?.state = running
    handleSession(stops)
  }

  mutating func permissionsChanged(_ granted: Permissions) {
    permissions = granted
    for explanation in granted.explanation { report(.degraded(explanation)) }
    if var running = session?.state, !granted.canRunSessions {
      let stop = running.permissionWithdrawn()
      session?.state = running
      handleSession(stop)
    }
    if !granted.canMonitorRegions {
      for id in installed { uninstall(id) }
      plan = .empty
    }
    updateFollowing()
  }

  /// The person stopped before reaching some destinations of the session's
  /// zones: watch a small region around them and resume when they move on.
  mutating func armResume(at point: Coordinate, for stopped: PreciseSession) {
    if let old = resume { uninstall(old.id) }
    resumeCount += 1
    let zone = PlannedRegion(
      id: stopped.zone.id, kind: .approach, center: stopped.zone.center,
      radius: stopped.zones.map { $0.center.distance(to: stopped.zone.center) + $0.radius }.max() ?? stopped.zone.radius,
      destinations: stopped.pending)
    // Only leaving it matters (`regionEvent`): its entries would be wakes for nothing.
    let region = PlannedRegion(
      id: Self.resumePrefix + String(resumeCount), kind: .edge, center: point, radius: config.coverage.minimumEdgeRadius, destinations: [],
      notifyOnEntry: !config.coverage.quietExits)
    install(region)
    resume = (region.id, zone)
  }

  /// Applies session events: fires, and on a stop settles the budget with
  /// the time actually used.
  mutating func handleSession(_ events: [PreciseSession.Event]) {
    for event in events {
      switch event {
      case .fire(let destination, let distance, _):
        fire(destination, distance: distance)
      case .rest:
        command(.stopPrecise)
        if suspendsWhenIdle {
          holdingAwake = true
          updateFollowing()
        }
      case .resume:
        command(.startPrecise)
        releaseHold()
      case .stop(let reason):
        guard let ended = session else { continue }
        let used = ended.state.used(at: now)
        budget.settle(ended.charge, used: used)
        session = nil
        command(.stopPrecise)
        saveBudget()
        report(.sessionStopped(reason, used: used))
        releaseHold()
        if reason == .stationary || reason == .noProgress, !ended.state.pending.isEmpty, let here = lastPosition { armResume(at: here, for: ended.state) }
      }
    }
  }

  /// A resting session resumed or ended: reduced updates only if following wants them.
  mutating func releaseHold() {
    guard holdingAwake else { return }
    holdingAwake = false
    updateFollowing()
  }
}
