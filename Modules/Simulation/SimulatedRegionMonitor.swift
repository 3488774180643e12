import Domain
import Foundation
import Geofencing
import Synchronization

/// A region monitor that behaves like iOS: 20 regions, a crossing counted
/// only after the OS's coarse position has been past the boundary by a
/// margin for a dwell time, delivery after a latency that depends on the
/// positioning the OS had (Wi-Fi fast, cell minutes), no event for a region
/// registered while inside (ask with `requestState`, answered from what the
/// OS believes, not from where the device is), exit events, and failure when
/// over capacity or when approximate location disables it.
public final class SimulatedRegionMonitor: RegionMonitor, @unchecked Sendable {
  struct Watch {
    let region: PlannedRegion
    /// What the OS believes: inside or not.
    var inside: Bool?
    /// Since when the coarse position has been past the margin the other way.
    var crossingSince: Date?
  }

  public let capacity: Int
  private let config: WorldConfig.RegionMonitoring
  private var random: SimRandom
  private let position: CoarsePositionProcess
  private var watches: [String: Watch] = [:]
  private var pending: [RegionEvent] = []
  private var coarse: CoarsePositionProcess.Sample?
  private var lastEvaluation: Date?
  private var stateRequests: [String] = []
  public private(set) var available = true
  /// The most regions ever monitored at once (the benchmark's cap check).
  public private(set) var peak = 0
  public private(set) var failures = 0
  private let lock = NSLock()

  /// `position` is the OS's own coarse position, shared with its other
  /// location services on the same phone.
  public init(config: WorldConfig.RegionMonitoring, position: CoarsePositionProcess, random: SimRandom) {
    self.config = config
    self.capacity = config.capacity
    self.position = position
    self.random = random
  }

  /// A monitor with a coarse position of its own.
  public convenience init(config: WorldConfig.RegionMonitoring, coarse: WorldConfig.CoarsePosition = .init(), random: SimRandom) {
    var random = random
    self.init(config: config, position: CoarsePositionProcess(config: coarse, random: random.fork(77)), random: random)
  }

  /// Region events delivered to the app (state answers included).
  public private(set) var delivered = 0
  /// Hands each delivery to the app (set once by the phone that owns this
  /// monitor, whose location services decide whether it woke the app).
  var wake: (Date, Int) -> Void = { _, _ in }

  public func setAvailable(_ value: Bool) { lock.withLock { available = value; if !value { watches = [:] } } }

  public func monitoredRegions() -> Set<String> { lock.withLock { Set(watches.keys) } }

  public func startMonitoring(_ region: PlannedRegion) throws {
    try lock.withLock {
      guard available else { throw RegionMonitorError.unavailable("approximate location") }
      guard watches[region.id] != nil || watches.count < capacity else {
        failures += 1
        throw RegionMonitorError.overCapacity(capacity: capacity)
      }
      // The state is what the OS sees now: registering inside gives no entry.
      let inside = coarse.map { region.center.distance(to: $0.point) <= max(region.radius, config.minimumEffectiveRadius) }
      watches[region.id] = Watch(region: region, inside: inside, crossingSince: nil)
      peak = max(peak, watches.count)
    }
  }

  public func stopMonitoring(_ id: String) { lock.withLock { _ = watches.removeValue(forKey: id) } }

  public func requestState(_ id: String) { lock.withLock { stateRequests.append(id) } }

  /// Advances the OS to `now` with the device at `position`; returns the
  /// events due by now, in time order.
  public func step(position: Coordinate, at now: Date) -> [RegionEvent] {
    lock.withLock {
      if lastEvaluation.map({ now.timeIntervalSince($0) >= config.evaluationInterval }) ?? true {
        coarse = self.position.sample(position, at: now)
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
      guard pending.contains(where: { $0.at <= now }) else { return [] }
      let due = pending.filter { $0.at <= now }.sorted { $0.at < $1.at }
      pending.removeAll { $0.at <= now }
      // Events for regions no longer monitored are not delivered.
      let live = due.filter { watches[$0.id] != nil }
      if !live.isEmpty {
        delivered += live.count
        wake(now, live.count)
      }
      return live
    }
  }

  private func evaluate(at now: Date) {
    guard let coarse = coarse?.point, let source = self.coarse?.source else { return }
    // Sorted: random draws must come in the same order on every run.
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
          let latency =
            source == .wifi
            ? random.logNormal(median: config.latencyWiFiMedian, p95: config.latencyWiFiP95)
            : random.logNormal(median: config.latencyCellMedian, p95: config.latencyCellP95)
          pending.append(RegionEvent(id: id, kind: believedInside ? .exited : .entered, at: now.addingTimeInterval(latency)))
        }
      } else {
        watch.crossingSince = now
      }
      watches[id] = watch
    }
  }

}
