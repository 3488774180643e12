import Domain
import Foundation

/// One short precise-location session confirming arrival in an approach
/// zone. Fed fixes and the passage of time, it fires destinations a good fix
/// falls inside, and stops when every destination is settled (fired, or the
/// person left the zone), no fix comes in time, the person stands still,
/// the deadline passes (the shorter of the power limit and the budget
/// granted), permission is withdrawn, or heat turns critical. A deadline
/// only ever moves earlier.
public struct PreciseSession: Sendable {
  public enum StopReason: String, Sendable, Codable {
    case settled, leftZone = "left zone", noFix = "no fix", stationary, maxDuration = "time limit"
    case noProgress = "not heading to any destination"
    case budget = "budget exhausted", permission = "permission withdrawn", criticalHeat = "critical heat"
    case shutdown = "the program stopped"
  }

  public enum Event: Equatable, Sendable {
    case fire(Destination, distance: Double, accuracy: Double)
    case stop(StopReason)
    /// No fix is needed before `until`: turn the GPS off…
    case rest(until: Date)
    /// …and on again.
    case resume
  }

  public let zone: PlannedRegion
  /// Every zone this session confirms (zones entered while it ran join it).
  public private(set) var zones: [PlannedRegion]
  private var settled: Set<Destination> = []
  public let startedAt: Date
  public private(set) var deadline: Date
  public private(set) var pending: [Destination]
  public private(set) var stopped: StopReason?
  /// When it stopped, where the stop came with a time.
  public private(set) var stoppedAt: Date?
  private let config: SessionConfig
  private var stationaryStop: TimeInterval
  private var deadlineReason: StopReason
  private var lastFixAt: Date?
  private var anchor: (point: Coordinate, since: Date)?
  private var lastGood: (point: Coordinate, at: Date)?
  /// The last fix the session judged plausible and accurate enough.
  public var lastPlausibleFix: Coordinate? { lastGood?.point }
  private var implausibleInARow = 0
  /// Plausible fixes so far; the first few cannot be checked against any
  /// other, so "passed by" waits for them.
  private var plausibleFixes = 0
  /// The closest the person has come to the edge of any pending destination, and when.
  private var progress: (gap: Double, at: Date)?
  /// While resting (GPS off): since and until when.
  public private(set) var resting: (since: Date, until: Date)?
  private var restedTotal: TimeInterval = 0
  /// Plausible good fixes of the last seconds, for the speed.
  private var recent: [(point: Coordinate, at: Date)] = []
  /// Consecutive good fixes inside each pending destination.
  private var streaks: [Destination: Int] = [:]
  /// The closest each pending destination has been, to tell when it was passed.
  private var closest: [Destination: Double] = [:]
  /// Destinations settled as passed by (a subset of `settled`).
  private var passed: Set<Destination> = []

  public init(zone: PlannedRegion, startedAt: Date, limits: PowerPolicy.Limits, granted: TimeInterval, config: SessionConfig) {
    self.zone = zone
    zones = [zone]
    self.startedAt = startedAt
    self.config = config
    pending = zone.destinations
    stationaryStop = limits.stationaryStop
    let byPower = limits.maxDuration
    deadline = startedAt.addingTimeInterval(min(byPower, granted))
    deadlineReason = granted < byPower ? .budget : .maxDuration
  }

  public var isRunning: Bool { stopped == nil }

  /// Seconds of precise tracking so far, rests left out (what the budget is charged).
  public func used(at now: Date) -> TimeInterval {
    let end = min(now, deadline, stoppedAt ?? now)
    let resting = resting.map { max(0, min(end, $0.until).timeIntervalSince($0.since)) } ?? 0
    return max(0, end.timeIntervalSince(startedAt) - restedTotal - resting)
  }

  public mutating func fix(_ point: Coordinate, accuracy: Double, at now: Date) -> [Event] {
    guard isRunning else { return [] }
    // The same fix handed over twice (a phone's report that also answers a
    // wake-up fix) is one fix, not two in a row.
    if let last = lastGood, last.at == now, last.point == point { return [] }
    if let stop = timeLimit(at: now) { return [stop] }
    // A position too coarse to place anyone (the phone's Wi-Fi or cell
    // guess while its GPS has no fix) is no fix: without this a session
    // whose GPS never started ran to its time limit on them.
    if accuracy <= config.fixMaxAccuracy { lastFixAt = now }
    var events: [Event] = []
    if let last = lastGood, now > last.at,
      last.point.distance(to: point) / now.timeIntervalSince(last.at) > config.maxPlausibleSpeed
    {
      // An outlier: ignored, and it does not break a streak either. Three
      // in a row mean the last good fix was the outlier: start over from here.
      implausibleInARow += 1
      if implausibleInARow < 3 { return events }
      // The earlier fixes were the outliers: forget what they taught.
      closest = [:]
      plausibleFixes = 0
    }
    implausibleInARow = 0
    if accuracy <= config.fixMaxAccuracy {
      lastGood = (point, now)
      plausibleFixes += 1
      // "Passed" rests on one fix farther away, and GPS strays that far
      // near buildings: a passed place the person is found inside again
      // was not passed, and is confirmed like any other.
      for destination in passed where accuracy <= destination.radius && destination.center.distance(to: point) <= destination.radius {
        passed.remove(destination)
        settled.remove(destination)
        closest[destination] = nil
        streaks[destination] = 0
        pending.append(destination)
      }
      let trusted = plausibleFixes > 3
      for destination in pending {
        let distance = destination.center.distance(to: point)
        let nearest = trusted ? min(closest[destination] ?? distance, distance) : distance
        if trusted { closest[destination] = nearest }
        if trusted, nearest <= destination.radius + config.passedNear, distance > nearest + config.passedMargin,
          distance > destination.radius + config.passedMargin
        {
          // Came closer, then moved away: passed by, nothing to confirm.
          pending.removeAll { $0 == destination }
          settled.insert(destination)
          passed.insert(destination)
          continue
        }
        guard accuracy <= destination.radius, distance <= destination.radius else {
          streaks[destination] = 0
          continue
        }
        streaks[destination, default: 0] += 1
        if streaks[destination, default: 0] >= config.confirmations, pending.contains(destination) {
          events.append(.fire(destination, distance: distance, accuracy: accuracy))
          settled.formUnion(pending.filter { $0.task == destination.task })
          pending.removeAll { $0.task == destination.task }
          passed = passed.filter { $0.task != destination.task }
        }
      }
      if pending.isEmpty { return events + [stop(.settled, at: now)] }
      let gap = pending.map { $0.center.distance(to: point) - $0.radius }.min() ?? 0
      if let best = progress, gap > best.gap - config.progressStep {
        if now.timeIntervalSince(best.at) >= config.noProgressStop { return events + [stop(.noProgress, at: now)] }
      } else {
        progress = (gap, now)
      }
      if zones.allSatisfy({ $0.center.distance(to: point) > $0.radius + config.leaveMargin }) { return events + [stop(.leftZone, at: now)] }
      if let anchor, anchor.point.distance(to: point) <= config.stationaryRadius {
        if now.timeIntervalSince(anchor.since) >= stationaryStop { return events + [stop(.stationary, at: now)] }
      } else {
        anchor = (point, now)
      }
      recent.append((point, now))
      recent.removeAll { now.timeIntervalSince($0.at) > 15 }
      if let rest = restUntil(gap: gap, at: now) {
        resting = (now, rest)
        events.append(.rest(until: rest))
      }
    }
    return events
  }

  /// When the next fix is first needed, if that is worth a rest.
  private func restUntil(gap: Double, at now: Date) -> Date? {
    guard config.pauseMinimum > 0, resting == nil, let first = recent.first, now.timeIntervalSince(first.at) >= 5 else { return nil }
    let speed = max(first.point.distance(to: recent[recent.count - 1].point) / now.timeIntervalSince(first.at), config.pauseSpeedFloor)
    let wait = min((gap - config.pauseMargin) / speed - config.pauseLead, deadline.timeIntervalSince(now))
    return wait >= config.pauseMinimum ? now.addingTimeInterval(wait) : nil
  }

  /// Time passed with no fix; stops on the fix timeout or the deadline,
  /// and ends a rest when it is due.
  public mutating func tick(at now: Date) -> [Event] {
    guard isRunning else { return [] }
    if let rest = resting {
      if now >= deadline { return [stop(deadlineReason, at: now)] }
      guard now >= rest.until else { return [] }
      restedTotal += rest.until.timeIntervalSince(rest.since)
      resting = nil
      // The fix timeout counts from the GPS coming back on; the speed from fixes after it.
      lastFixAt = now
      recent = []
      return [.resume]
    }
    if let stop = timeLimit(at: now) { return [stop] }
    return []
  }

  /// New power limits: the deadline may move earlier, never later;
  /// critical heat stops the session now.
  public mutating func powerChanged(_ limits: PowerPolicy.Limits, at now: Date) -> [Event] {
    guard isRunning else { return [] }
    guard limits.allowed else { return [stop(.criticalHeat, at: now)] }
    let capped = startedAt.addingTimeInterval(limits.maxDuration)
    if capped < deadline {
      deadline = capped
      deadlineReason = .maxDuration
    }
    stationaryStop = min(stationaryStop, limits.stationaryStop)
    return timeLimit(at: now).map { [$0] } ?? []
  }

  /// Another approach zone was entered while this session runs: its
  /// destinations join it (the deadline stays as it is).
  public mutating func join(_ other: PlannedRegion) {
    guard isRunning, !zones.contains(where: { $0.id == other.id }) else { return }
    zones.append(other)
    for destination in other.destinations where !pending.contains(destination) && !settled.contains(destination) {
      pending.append(destination)
    }
  }

  public mutating func permissionWithdrawn() -> [Event] {
    guard isRunning else { return [] }
    return [stop(.permission)]
  }

  /// The program is stopping cleanly: the time used so far is all that is charged.
  public mutating func shutdown(at now: Date) -> [Event] {
    guard isRunning else { return [] }
    return [stop(.shutdown, at: now)]
  }

  /// A task was finished or snoozed elsewhere: its destinations need no confirming.
  public mutating func settle(task: TaskID) -> [Event] {
    guard isRunning else { return [] }
    pending.removeAll { $0.task == task }
    passed = passed.filter { $0.task != task }
    return pending.isEmpty ? [stop(.settled)] : []
  }

  private mutating func timeLimit(at now: Date) -> Event? {
    if now >= deadline { return stop(deadlineReason, at: now) }
    let since = lastFixAt ?? startedAt
    if now.timeIntervalSince(since) >= config.noFixTimeout { return stop(.noFix, at: now) }
    return nil
  }

  private mutating func stop(_ reason: StopReason, at now: Date? = nil) -> Event {
    stopped = reason
    stoppedAt = now
    return .stop(reason)
  }
}
