import Domain
import Foundation

/// The region monitor of a phone reached over the network: it records the
/// plan the phone should watch (sent as waypoint commands when it changes)
/// and, because a phone may never apply them, also evaluates the phone's
/// own location reports against the same regions on the server.
public final class PhoneRegionMonitor: RegionMonitor, @unchecked Sendable {
  public let capacity: Int
  private let lock = NSLock()
  // Guarded by `lock`.
  private var regions: [String: PlannedRegion] = [:]
  private var stamps: [String: Int] = [:]
  private var inside: Set<String> = []
  private var changed = false
  private var requests: [String] = []

  /// iOS watches 20 regions, Android 100.
  public init(capacity: Int) {
    self.capacity = capacity
  }

  public func monitoredRegions() -> Set<String> { lock.withLock { Set(regions.keys) } }

  public func startMonitoring(_ region: PlannedRegion) throws {
    try lock.withLock {
      guard regions[region.id] != nil || regions.count < capacity else { throw RegionMonitorError.overCapacity(capacity: capacity) }
      regions[region.id] = region
      inside.remove(region.id)
      if stamps[region.id] == nil { stamps[region.id] = uniqueStamp(for: region.id) }
      changed = true
    }
  }

  public func stopMonitoring(_ id: String) {
    lock.withLock {
      guard regions.removeValue(forKey: id) != nil else { return }
      inside.remove(id)
      stamps[id] = nil
      changed = true
    }
  }

  /// Answered by the next `evaluate`, which reports `inside`/`outside` for it.
  public func requestState(_ id: String) {
    lock.withLock { requests.append(id) }
  }

  /// Region events implied by a reported location: crossings of any
  /// watched region, and the answers to pending state requests. A fix
  /// too coarse to tell (accuracy over the radius) changes nothing.
  public func evaluate(_ point: Coordinate, accuracy: Double, at: Date) -> [RegionEvent] {
    lock.withLock {
      var events: [RegionEvent] = []
      let asked = Set(requests)
      requests.removeAll()
      for (id, region) in regions.sorted(by: { $0.key < $1.key }) where accuracy <= max(region.radius, 50) {
        let isInside = point.distance(to: region.center) <= region.radius
        let wasInside = inside.contains(id)
        if isInside != wasInside {
          events.append(RegionEvent(id: id, kind: isInside ? .entered : .exited, at: at))
          if isInside { inside.insert(id) } else { inside.remove(id) }
        } else if asked.contains(id) {
          events.append(RegionEvent(id: id, kind: isInside ? .inside : .outside, at: at))
        }
      }
      return events
    }
  }

  /// The region a phone's transition names: by id (iOS), stamp (Android) or name.
  public func region(for transition: PhoneTransition) -> String? {
    lock.withLock {
      if let id = transition.regionID, regions[id] != nil { return id }
      if let stamp = transition.stamp, let match = stamps.first(where: { $0.value == stamp }) { return match.key }
      if let name = transition.name, regions[name] != nil { return name }
      return nil
    }
  }

  /// Records a transition the phone itself saw, so the server does not
  /// report the same crossing again from the next location.
  public func phoneSaw(_ id: String, entered: Bool) {
    lock.withLock {
      if entered { inside.insert(id) } else { inside.remove(id) }
    }
  }

  /// The commands that bring the phone in line with the plan, once per
  /// change: `clearRegions` (Android cannot delete one region) then the
  /// whole set. Empty when nothing changed since the last call.
  public func takeCommands() -> [PhoneCommand] {
    lock.withLock {
      guard changed else { return [] }
      changed = false
      let set = regions.values.sorted { $0.id < $1.id }.map { region in
        PhoneRegion(id: region.id, name: region.id, center: region.center, radius: region.radius, stamp: stamps[region.id] ?? 0)
      }
      return [.clearRegions, .setRegions(set)]
    }
  }

  /// Android keys regions by creation time in epoch seconds: a stable
  /// value per id, distinct from every other region watched now.
  private func uniqueStamp(for id: String) -> Int {
    var stamp = 1_000_000_000 + Int(FNV1a.hash64(id.utf8) % 900_000_000)
    let used = Set(stamps.values)
    while used.contains(stamp) { stamp += 1 }
    return stamp
  }
}
