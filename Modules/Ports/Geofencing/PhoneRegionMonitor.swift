import Domain
import Foundation
import Locking

/// The region monitor of a phone reached over the network: it records the
/// plan the phone should watch (sent as waypoint commands when it changes)
/// and, because a phone may never apply them, also evaluates the phone's
/// own location reports against the same regions on the server.
public final class PhoneRegionMonitor: RegionMonitor, Sendable {
  public let capacity: Int
  private let state = Locked(Watched())

  /// What the phone should watch, and what the server saw of it.
  private struct Watched {
    var regions: [String: PlannedRegion] = [:]
    var stamps: [String: Int] = [:]
    var inside: Set<String> = []
    var changed = false
    var requests: [String] = []

    /// Android keys regions by creation time in epoch seconds: a stable
    /// value per id, distinct from every other region watched now.
    func uniqueStamp(for id: String) -> Int {
      var stamp = 1_000_000_000 + Int(FNV1a.hash64(id.utf8) % 900_000_000)
      let used = Set(stamps.values)
      while used.contains(stamp) { stamp += 1 }
      return stamp
    }
  }

  /// iOS watches 20 regions, Android 100.
  public init(capacity: Int) {
    self.capacity = capacity
  }

  public func monitoredRegions() -> Set<String> { state.withLock { Set($0.regions.keys) } }

  public func startMonitoring(_ region: PlannedRegion) throws {
    let capacity = capacity
    try state.withLock { (watched: inout Watched) throws(RegionMonitorError) in
      guard watched.regions[region.id] != nil || watched.regions.count < capacity else { throw .overCapacity(capacity: capacity) }
      watched.regions[region.id] = region
      watched.inside.remove(region.id)
      if watched.stamps[region.id] == nil { watched.stamps[region.id] = watched.uniqueStamp(for: region.id) }
      watched.changed = true
    }
  }

  public func stopMonitoring(_ id: String) {
    state.withLock { watched in
      guard watched.regions.removeValue(forKey: id) != nil else { return }
      watched.inside.remove(id)
      watched.stamps[id] = nil
      watched.changed = true
    }
  }

  /// Answered by the next `evaluate`, which reports `inside`/`outside` for it.
  public func requestState(_ id: String) {
    state.withLock { $0.requests.append(id) }
  }

  /// Region events implied by a reported location: crossings of any
  /// watched region, and the answers to pending state requests. A fix
  /// too coarse to tell (accuracy over the radius) changes nothing.
  public func evaluate(_ point: Coordinate, accuracy: Double, at: Date) -> [RegionEvent] {
    state.withLock { watched in
      var events: [RegionEvent] = []
      let asked = Set(watched.requests)
      watched.requests.removeAll()
      for (id, region) in watched.regions.sorted(by: { $0.key < $1.key }) where accuracy <= max(region.radius, 50) {
        let isInside = point.distance(to: region.center) <= region.radius
        let wasInside = watched.inside.contains(id)
        if isInside != wasInside {
          events.append(RegionEvent(id: id, kind: isInside ? .entered : .exited, at: at))
          if isInside { watched.inside.insert(id) } else { watched.inside.remove(id) }
        } else if asked.contains(id) {
          events.append(RegionEvent(id: id, kind: isInside ? .inside : .outside, at: at))
        }
      }
      return events
    }
  }

  /// The region a phone's transition names: by id (iOS), stamp (Android) or name.
  public func region(for transition: PhoneTransition) -> String? {
    state.withLock { watched in
      if let id = transition.regionID, watched.regions[id] != nil { return id }
      if let stamp = transition.stamp, let match = watched.stamps.first(where: { $0.value == stamp }) { return match.key }
      if let name = transition.name, watched.regions[name] != nil { return name }
      return nil
    }
  }

  /// Records a transition the phone itself saw, so the server does not
  /// report the same crossing again from the next location.
  public func phoneSaw(_ id: String, entered: Bool) {
    state.withLock { watched in
      if entered { watched.inside.insert(id) } else { watched.inside.remove(id) }
    }
  }

  /// The commands that bring the phone in line with the plan, once per
  /// change: `clearRegions` (Android cannot delete one region) then the
  /// whole set. Empty when nothing changed since the last call.
  public func takeCommands() -> [PhoneCommand] {
    state.withLock { watched in
      guard watched.changed else { return [] }
      watched.changed = false
      let set = watched.regions.values.sorted { $0.id < $1.id }.map { region in
        PhoneRegion(id: region.id, name: region.id, center: region.center, radius: region.radius, stamp: watched.stamps[region.id] ?? 0)
      }
      return [.clearRegions, .setRegions(set)]
    }
  }
}
