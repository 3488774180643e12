import Domain
import Foundation
import Geofencing
import Locking

/// A region monitor that behaves like iOS: 20 regions, a crossing counted
/// only after the OS's coarse position has been past the boundary by a
/// margin for a dwell time, delivery after a latency that depends on the
/// positioning the OS had (Wi-Fi fast, cell minutes), no event for a region
/// registered while inside (ask with `requestState`, answered from what the
/// OS believes, not from where the device is), exit events, and failure when
/// over capacity or when approximate location disables it. With
/// `declaresInitialState` it is iOS 17's CLMonitor: a region added with a
/// declared state takes it as the OS's belief, and the OS's own finding,
/// made as `requestState` would answer it, is delivered only where it
/// differs.
public final class SimulatedRegionMonitor: RegionMonitor, Sendable {
  struct Watch {
    let region: PlannedRegion
    /// What the OS believes: inside or not.
    var inside: Bool?
    /// Since when the coarse position has been past the margin the other way.
    var crossingSince: Date?
    /// The state declared when it was added, until the OS made its own finding.
    var declared: Bool?
  }

  public let capacity: Int
  public let declaresInitialState: Bool
  private let position: CoarsePositionProcess
  private let state: Locked<Monitoring>
  private let wakeHandler = Locked<@Sendable (Date, Int) -> Void>({ _, _ in })

  /// `position` is the OS's own coarse position, shared with its other
  /// location services on the same phone.
  /// `stillSpeed`: under it the true track is still (`stationaryAfter`).
  public init(
    config: WorldConfig.RegionMonitoring, position: CoarsePositionProcess, random: SimRandom, declaresInitialState: Bool = false,
    stillSpeed: Double = WorldConfig.Motion().stillSpeed
  ) {
    self.capacity = config.capacity
    self.declaresInitialState = declaresInitialState
    self.position = position
    state = Locked(Monitoring(config: config, stillSpeed: stillSpeed, random: random))
  }

  /// A monitor with a coarse position of its own.
  public convenience init(
    config: WorldConfig.RegionMonitoring, coarse: WorldConfig.CoarsePosition = .init(), random: SimRandom, declaresInitialState: Bool = false
  ) {
    var random = random
    self.init(
      config: config, position: CoarsePositionProcess(config: coarse, random: random.fork(77)), random: random, declaresInitialState: declaresInitialState)
  }

  public var available: Bool { state.withLock { $0.available } }
  /// The most regions ever monitored at once (the benchmark's cap check).
  public var peak: Int { state.withLock { $0.peak } }
  public var failures: Int { state.withLock { $0.failures } }
  /// Region events delivered to the app (state answers included).
  public var delivered: Int { state.withLock { $0.delivered } }
  /// Hands each delivery to the app (set once by the phone that owns this
  /// monitor, whose location services decide whether it woke the app).
  var wake: @Sendable (Date, Int) -> Void {
    get { wakeHandler.withLock { $0 } }
    set { wakeHandler.withLock { $0 = newValue } }
  }

  public func setAvailable(_ value: Bool) {
    state.withLock { state in
      state.available = value
      if !value { state.watches = [:] }
    }
  }

  public func monitoredRegions() -> Set<String> { state.withLock { Set($0.watches.keys) } }

  public func startMonitoring(_ region: PlannedRegion) throws {
    try start(region, declared: nil)
  }

  public func startMonitoring(_ region: PlannedRegion, assumingInside: Bool) throws {
    try start(region, declared: declaresInitialState ? assumingInside : nil)
  }

  private func start(_ region: PlannedRegion, declared: Bool?) throws {
    let capacity = capacity
    try state.withLock { (state: inout Monitoring) throws(RegionMonitorError) in
      guard state.available else { throw .unavailable("approximate location") }
      guard state.watches[region.id] != nil || state.watches.count < capacity else {
        state.failures += 1
        throw .overCapacity(capacity: capacity)
      }
      // Without a declared state it is what the OS sees now: registering inside gives no entry.
      let inside = declared ?? state.coarse.map { region.center.distance(to: $0.point) <= max(region.radius, state.config.minimumEffectiveRadius) }
      state.watches[region.id] = Watch(region: region, inside: inside, crossingSince: nil, declared: declared)
      if declared != nil { state.undetermined.append(region.id) }
      state.peak = max(state.peak, state.watches.count)
    }
  }

  public func stopMonitoring(_ id: String) { state.withLock { _ = $0.watches.removeValue(forKey: id) } }

  public func requestState(_ id: String) { state.withLock { $0.stateRequests.append(id) } }

  /// Advances the OS to `now` with the device at `position`; returns the
  /// events due by now, in time order.
  public func step(position truth: Coordinate, at now: Date) -> [RegionEvent] {
    let position = position
    let live = state.withLock { $0.step(truth, at: now, position: position) }
    if !live.isEmpty { wake(now, live.count) }
    return live
  }
}

/// What the simulated OS holds for its region monitoring.
private struct Monitoring {
  let config: WorldConfig.RegionMonitoring
  let stillSpeed: Double
  /// Delivery delays are keyed by this, the region and the second (`SimRandom.keyed`).
  let key: UInt64
  var watches: [String: SimulatedRegionMonitor.Watch] = [:]
  var pending: [RegionEvent] = []
  var coarse: CoarsePositionProcess.Sample?
  var lastEvaluation: Date?
  var stateRequests: [String] = []
  /// Regions added with a declared state, in the order added, before the OS's finding.
  var undetermined: [String] = []
  var available = true
  /// The true track's last second, and since when it has been still (`stationaryAfter`).
  var lastTruth: (point: Coordinate, at: Date)?
  var stillSince: Date?
  /// Until when crossings wait after a long stillness ended (Android's Doze).
  var resumesAt: Date?
  var peak = 0
  var failures = 0
  var delivered = 0

  init(config: WorldConfig.RegionMonitoring, stillSpeed: Double, random: SimRandom) {
    self.config = config
    self.stillSpeed = stillSpeed
    var random = random
    key = random.next()
  }

  mutating func step(_ truth: Coordinate, at now: Date, position: CoarsePositionProcess) -> [RegionEvent] {
    noteStillness(truth, at: now)
    if lastEvaluation.map({ now.timeIntervalSince($0) >= config.evaluationInterval }) ?? true {
      coarse = position.sample(truth, at: now)
      lastEvaluation = now
      evaluate(at: now)
    }
    for id in stateRequests {
      guard let watch = watches[id] else { continue }
      // The OS answers from its own belief; before it has any, from its position now.
      let inside = watch.inside ?? coarse.map { watch.region.center.distance(to: $0.point) <= max(watch.region.radius, config.minimumEffectiveRadius) } ?? false
      pending.append(RegionEvent(id: id, kind: inside ? .inside : .outside, at: now.addingTimeInterval(config.stateLatency)))
    }
    stateRequests = []
    findDeclaredStates(at: now)
    guard pending.contains(where: { $0.at <= now }) else { return [] }
    let due = pending.filter { $0.at <= now }.sorted { $0.at < $1.at }
    pending.removeAll { $0.at <= now }
    // Events for regions no longer monitored are not delivered.
    let live = due.filter { watches[$0.id] != nil }
    delivered += live.count
    return live
  }

  /// Follows the true track for `stationaryAfter`: a device that moves
  /// after being still that long has its crossings held until the OS
  /// watches again, a moment drawn up to `stationaryDelayMax` later.
  mutating func noteStillness(_ truth: Coordinate, at now: Date) {
    guard config.stationaryAfter > 0 else { return }
    defer { lastTruth = (truth, now) }
    guard let last = lastTruth, now > last.at else { return }
    let still = last.point.distance(to: truth) < stillSpeed * now.timeIntervalSince(last.at)
    if still {
      if stillSince == nil { stillSince = last.at }
      return
    }
    if let since = stillSince, now.timeIntervalSince(since) >= config.stationaryAfter {
      var random = SimRandom.keyed(key, SimRandom.digest("stationary"), at: now)
      resumesAt = now.addingTimeInterval(random.uniform(0...config.stationaryDelayMax))
    }
    stillSince = nil
  }

  /// The OS's first finding for regions added with a declared state, from
  /// its position now (as it answers `requestState`), delivered only where
  /// it differs; from then on the region crosses as any other.
  mutating func findDeclaredStates(at now: Date) {
    guard !undetermined.isEmpty, let coarse = coarse?.point else { return }
    let ids = undetermined
    undetermined = []
    for id in ids {
      guard var watch = watches[id], let declared = watch.declared else { continue }
      let found = watch.region.center.distance(to: coarse) <= max(watch.region.radius, config.minimumEffectiveRadius)
      watch.declared = nil
      if found != declared {
        watch.inside = found
        watch.crossingSince = nil
        pending.append(RegionEvent(id: id, kind: found ? .inside : .outside, at: now.addingTimeInterval(config.stateLatency)))
      }
      watches[id] = watch
    }
  }

  mutating func evaluate(at now: Date) {
    guard let coarse = coarse?.point, let source = self.coarse?.source else { return }
    // Sorted, so events come in the same order on every run.
    for id in watches.keys.sorted() {
      guard var watch = watches[id] else { continue }
      let region = watch.region
      let radius = max(region.radius, config.minimumEffectiveRadius)
      // The margin in full where there is room for it: outside always, inside
      // only as far as the region is bigger than the OS's minimum.
      let entryMargin = min(config.crossingMargin, max(0, radius - config.minimumEffectiveRadius))
      let distance = region.center.distance(to: coarse)
      // A region registered before the OS had a position learns its state now.
      let believedInside = watch.inside ?? (distance <= radius)
      watch.inside = believedInside
      let crossed = believedInside ? distance >= radius + config.crossingMargin : distance <= radius - entryMargin
      if !crossed {
        watch.crossingSince = nil
      } else if let since = watch.crossingSince {
        if now.timeIntervalSince(since) >= config.dwell {
          watch.inside = !believedInside
          watch.crossingSince = nil
          // The OS tracks the crossing either way; it delivers only what the app asked for.
          if believedInside ? region.notifyOnExit : region.notifyOnEntry {
            var random = SimRandom.keyed(key, SimRandom.digest(id), at: now)
            let latency =
              source == .wifi
              ? random.logNormal(median: config.latencyWiFiMedian, p95: config.latencyWiFiP95)
              : random.logNormal(median: config.latencyCellMedian, p95: config.latencyCellP95)
            // Nothing is delivered before the OS watches again after a long stillness.
            let at = max(now.addingTimeInterval(latency), resumesAt ?? now)
            pending.append(RegionEvent(id: id, kind: believedInside ? .exited : .entered, at: at))
          }
        }
      } else {
        watch.crossingSince = now
      }
      watches[id] = watch
    }
  }
}
