import Domain
import Foundation
import Locking

/// The region monitor of a phone reached over the network: it records the
/// plan the phone should watch (sent as waypoint commands when it changes)
/// and names the region a phone's transition is about. Where the phone's
/// reports place the person is the engine's to judge (`PhoneReading`), so
/// a phone that never applies the regions still leaves the plan's edge.
public final class PhoneRegionMonitor: RegionMonitor, Sendable {
  public let capacity: Int
  private let state = Locked(Watched())

  /// What the phone should watch, and what the server saw of it.
  private struct Watched {
    var regions: [String: PlannedRegion] = [:]
    /// `regions`' keys, kept beside it: the engine reads them at every
    /// step, and a copy of a set kept is a retain, not a set built anew.
    var ids: Set<String> = []
    var stamps: [String: Int] = [:]
    var changed = false

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

  public func monitoredRegions() -> Set<String> { state.withLock { $0.ids } }

  public func startMonitoring(_ region: PlannedRegion) throws {
    let capacity = capacity
    try state.withLock { (watched: inout Watched) throws(RegionMonitorError) in
      guard watched.regions[region.id] != nil || watched.regions.count < capacity else { throw .overCapacity(capacity: capacity) }
      watched.regions[region.id] = region
      watched.ids.insert(region.id)
      if watched.stamps[region.id] == nil { watched.stamps[region.id] = watched.uniqueStamp(for: region.id) }
      watched.changed = true
    }
  }

  public func stopMonitoring(_ id: String) {
    state.withLock { watched in
      guard watched.regions.removeValue(forKey: id) != nil else { return }
      watched.ids.remove(id)
      watched.stamps[id] = nil
      watched.changed = true
    }
  }

  /// The phone's next report answers it: the engine places the person
  /// from each report (`ArrivalMachine.phoneReport`), so nothing is kept here.
  public func requestState(_ id: String) {}

  /// The region a phone's transition names: by id (iOS), stamp (Android) or name.
  public func region(for transition: PhoneTransition) -> String? {
    state.withLock { watched in
      if let id = transition.regionID, watched.regions[id] != nil { return id }
      if let stamp = transition.stamp, let match = watched.stamps.first(where: { $0.value == stamp }) { return match.key }
      if let name = transition.name, watched.regions[name] != nil { return name }
      return nil
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
