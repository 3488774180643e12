import Domain
import Foundation
import Geofencing
import Synchronization

/// A region monitor that behaves like iOS: 20 regions, a crossing counted
/// only after the OS's coarse position has been past the boundary by a
/// margin for a dwell time, delivery after a random latency, no event for a
/// region registered while inside (ask with `requestState`), exit events, and
/// failure when over capacity or when approximate location disables it.
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
  private var watches: [String: Watch] = [:]
  private var pending: [RegionEvent] = []
  private var coarse: Coordinate?
  private var lastEvaluation: Date?
  private var stateRequests: [String] = []
  public private(set) var available = true
  /// The most regions ever monitored at once (the benchmark's cap check).
  public private(set) var peak = 0
  public private(set) var failures = 0
  private let lock = NSLock()

  public init(config: WorldConfig.RegionMonitoring, random: SimRandom) {
    self.config = config
    self.capacity = config.capacity
    self.random = random
  }

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
      let inside = coarse.map { region.center.distance(to: $0) <= max(region.radius, config.minimumEffectiveRadius) }
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
        coarse = position.offset(meters: random.gaussian(sigma: config.positionError), bearing: random.uniform(0...(2 * .pi)))
        lastEvaluation = now
        evaluate(at: now)
      }
      for id in stateRequests {
        guard let watch = watches[id] else { continue }
        let inside = watch.region.center.distance(to: position) <= watch.region.radius
        pending.append(RegionEvent(id: id, kind: inside ? .inside : .outside, at: now.addingTimeInterval(1)))
      }
      stateRequests = []
      let due = pending.filter { $0.at <= now }.sorted { $0.at < $1.at }
      pending.removeAll { $0.at <= now }
      // Events for regions no longer monitored are not delivered.
      return due.filter { watches[$0.id] != nil }
    }
  }

  private func evaluate(at now: Date) {
    guard let coarse else { return }
    // Sorted: random draws must come in the same order on every run.
    for id in watches.keys.sorted() {
      guard var watch = watches[id] else { continue }
      let region = watch.region
      let radius = max(region.radius, config.minimumEffectiveRadius)
      let margin = min(config.crossingMargin, radius / 2)
      let distance = region.center.distance(to: coarse)
      // A region registered before the OS had a position learns its state now.
      let believedInside = watch.inside ?? (distance <= radius)
      watch.inside = believedInside
      let crossed = believedInside ? distance >= radius + margin : distance <= radius - margin
      if !crossed {
        watch.crossingSince = nil
      } else if let since = watch.crossingSince {
        if now.timeIntervalSince(since) >= config.dwell {
          watch.inside = !believedInside
          watch.crossingSince = nil
          let latency = random.logNormal(median: config.latencyMedian, p95: config.latencyP95)
          pending.append(RegionEvent(id: id, kind: believedInside ? .exited : .entered, at: now.addingTimeInterval(latency)))
        }
      } else {
        watch.crossingSince = now
      }
      watches[id] = watch
    }
  }

}
