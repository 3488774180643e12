import Domain
import Foundation
import Geofencing

extension ArrivalService {
  /// Starts a precise session for an approach zone if permissions, power
  /// and the budget allow. Called with the lock held.
  func startSession(in zone: PlannedRegion) -> [ArrivalEvent] {
    if var running = session?.state {
      running.join(zone)
      session?.state = running
      return []
    }
    guard permissions.canRunSessions else { return [.sessionRefused("precise sessions need Always and precise location")] }
    let now = context.clock.now()
    let limits = PowerPolicy(config: config.session).limits(for: power)
    guard limits.allowed else { return [.sessionRefused(limits.reason)] }
    let ticket: (id: Int, granted: TimeInterval)
    do {
      ticket = try budget.reserve(limits.maxDuration, at: now, config: config.session)
      // Reserved durably before tracking starts, so a crash cannot hide it.
      try saveBudget()
    } catch {
      return [.sessionRefused("\(error)")]
    }
    session = (PreciseSession(zone: zone, startedAt: now, limits: limits, granted: ticket.granted, config: config.session), ticket.id)
    precise.startPreciseUpdates()
    return [.sessionStarted(zone: zone.id, granted: ticket.granted, limits: limits.reason)]
  }

  /// A precise fix: during a session it may fire; after leaving the
  /// coverage edge it replans; during a long session it keeps the plan
  /// following the person.
  public func preciseFix(_ point: Coordinate, accuracy: Double) -> [ArrivalEvent] {
    lock.withLock {
      let now = context.clock.now()
      lastPosition = point
      visits.observe(point, accuracy: accuracy)
      var events: [ArrivalEvent] = []
      if awaitingWakeFix, accuracy <= planner.config.replanMaxAccuracy {
        awaitingWakeFix = false
        events += wakeFixArrived(point, accuracy: accuracy, at: now)
      }
      if !confirming.isEmpty { events += confirmArrivals(with: point, accuracy: accuracy, at: now, gps: true) }
      guard var running = session?.state else { return events }
      let stops = running.fix(point, accuracy: accuracy, at: now)
      session?.state = running
      events += handleSession(stops)
      // Only a fix the session found plausible moves the plan: outliers jump kilometres.
      if planner.config.replanDuringSessions, running.lastPlausibleFix == point, let last = lastPlan,
        last.origin.distance(to: point) >= planner.config.sessionReplanDistance, now.timeIntervalSince(last.at) >= 30
      {
        events += replan(from: point, reason: "moved during a session")
      }
      return events
    }
  }

  /// The wake-up fix after an edge exit. Near where the plan was made, the
  /// exit came from the OS's wandering position: keep the plan and wait
  /// longer before trusting the next exit. Called with the lock held.
  func wakeFixArrived(_ point: Coordinate, accuracy: Double, at now: Date) -> [ArrivalEvent] {
    let edge = plan.regions.first { $0.kind == .edge }
    if let last = lastPlan, let edge, last.origin.distance(to: point) + accuracy <= edge.radius + config.exitMargin {
      let base = config.session.wakeFixBackoff
      wakeBackoff = min(max(wakeBackoff * 2, base), config.session.wakeFixBackoffMax)
      wakeQuietUntil = now.addingTimeInterval(wakeBackoff)
      return [.planKept("the wake-up fix is where the plan was made")]
    }
    wakeBackoff = 0
    wakeQuietUntil = nil
    return replan(from: point, reason: "left the coverage edge")
  }

  /// Time passed: stops a session whose fixes stopped or whose time is up,
  /// and replans when a snoozed task wakes up.
  public func tick() -> [ArrivalEvent] {
    lock.withLock {
      let now = context.clock.now()
      var events: [ArrivalEvent] = []
      if var running = session?.state {
        let stops = running.tick(at: now)
        session?.state = running
        events += handleSession(stops)
      }
      // A confirming fix that never came (no GPS): the entry fires nothing.
      confirming = confirming.filter { now.timeIntervalSince($0.value) < config.session.noFixTimeout }
      if let wake = nextSnoozeEnd, now >= wake, let origin = lastPosition ?? lastPlan?.origin {
        events += replan(from: origin, reason: "a snooze ended")
      }
      return events
    }
  }

  /// The program is stopping cleanly: a running session ends and is
  /// charged what it used, not the full reservation a crash would cost.
  public func shutdown() -> [ArrivalEvent] {
    lock.withLock {
      guard var running = session?.state else { return [] }
      let stops = running.shutdown(at: context.clock.now())
      session?.state = running
      return handleSession(stops)
    }
  }

  public func powerChanged(_ state: PowerState) -> [ArrivalEvent] {
    lock.withLock {
      power = state
      let following = updateFollowing()
      guard var running = session?.state else { return following }
      let events = running.powerChanged(PowerPolicy(config: config.session).limits(for: state), at: context.clock.now())
      session?.state = running
      return following + handleSession(events)
    }
  }

  public func permissionsChanged(_ granted: Permissions) -> [ArrivalEvent] {
    lock.withLock {
      permissions = granted
      var events: [ArrivalEvent] = granted.explanation.map { .degraded($0) }
      if var running = session?.state, !granted.canRunSessions {
        let stop = running.permissionWithdrawn()
        session?.state = running
        events += handleSession(stop)
      }
      if !granted.canMonitorRegions {
        for id in monitor.monitoredRegions() where Self.isOurs(id) { monitor.stopMonitoring(id) }
        plan = .empty
      }
      return events + updateFollowing()
    }
  }

  /// The person stopped before reaching some destinations of the session's
  /// zones: watch a small region around them and resume when they move on.
  /// Called with the lock held.
  func armResume(at point: Coordinate, for stopped: PreciseSession) -> [ArrivalEvent] {
    if let old = resume { monitor.stopMonitoring(old.id) }
    resumeCount += 1
    let zone = PlannedRegion(
      id: stopped.zone.id, kind: .approach, center: stopped.zone.center,
      radius: stopped.zones.map { $0.center.distance(to: stopped.zone.center) + $0.radius }.max() ?? stopped.zone.radius,
      destinations: stopped.pending)
    let region = PlannedRegion(id: Self.resumePrefix + String(resumeCount), kind: .edge, center: point, radius: config.coverage.minimumEdgeRadius, destinations: [])
    do {
      try monitor.startMonitoring(region)
      resume = (region.id, zone)
      return []
    } catch {
      return [.installFailed("\(region.id): \(error)")]
    }
  }

  /// Applies session events: fires, and on a stop settles the budget with
  /// the time actually used. Called with the lock held.
  func handleSession(_ events: [PreciseSession.Event]) -> [ArrivalEvent] {
    var result: [ArrivalEvent] = []
    for event in events {
      switch event {
      case .fire(let destination, let distance, _):
        result += fire(destination, distance: distance)
      case .rest:
        precise.stopPreciseUpdates()
      case .resume:
        precise.startPreciseUpdates()
      case .stop(let reason):
        guard let ended = session else { continue }
        let used = ended.state.used(at: context.clock.now())
        budget.settle(ended.charge, used: used)
        session = nil
        precise.stopPreciseUpdates()
        do { try saveBudget() } catch { result.append(.degraded("could not save the tracking budget: \(error)")) }
        result.append(.sessionStopped(reason, used: used))
        if reason == .stationary || reason == .noProgress, !ended.state.pending.isEmpty, let here = lastPosition { result += armResume(at: here, for: ended.state) }
      }
    }
    return result
  }
}
