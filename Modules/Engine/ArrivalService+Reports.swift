import Domain
import Foundation
import Geofencing

extension ArrivalService {
  /// A location a device reported on its own schedule (a phone over
  /// OwnTracks, a GPS): every live destination whose circle holds it fires
  /// when the fix is accurate enough for the place, and it answers entries
  /// waiting to be confirmed. A running session takes it as a precise fix,
  /// and the plan follows as after a significant change.
  /// `mayFire` false (a fix delivered long after it was taken) only plans;
  /// `restoring` (the last fix before a restart) also counts the visits it
  /// is inside as already announced, so they do not fire again.
  public func reportedFix(_ point: Coordinate, accuracy: Double, mayFire: Bool = true, restoring: Bool = false) -> [ArrivalEvent] {
    var events: [ArrivalEvent] = lock.withLock {
      if restoring {
        let now = context.clock.now()
        syncIndex(now: now)
        visits.observe(point, accuracy: accuracy)
        for key in index.containing(latitude: point.latitude, longitude: point.longitude) {
          guard let destination = indexed[key], point.distance(to: destination.center) <= destination.radius else { continue }
          _ = visits.arrive(destination, at: now)
        }
      }
      guard mayFire, !restoring else { return [] }
      let now = context.clock.now()
      syncIndex(now: now)
      visits.observe(point, accuracy: accuracy)
      let holding = index.containing(latitude: point.latitude, longitude: point.longitude).compactMap { indexed[$0] }
      // The phone's report answers the entries waiting to be confirmed (it was asked for one).
      var events = confirming.isEmpty ? [] : confirmArrivals(with: point, accuracy: accuracy, at: now, gps: false)
      for destination in holding.sorted(by: { $0.priority < $1.priority }) {
        let distance = point.distance(to: destination.center)
        // A report is taken at its word when its accuracy fits the place:
        // asking a fix for every Wi-Fi report inside a place spent the whole
        // allowance on confirmations (Docs/Benchmarks.md, OwnTracks rows).
        guard distance <= destination.radius, accuracy <= max(config.session.fixMaxAccuracy, destination.radius) else { continue }
        events += fire(destination, distance: distance)
      }
      return events
    }
    if mayFire, !restoring, sessionRunning { events += preciseFix(point, accuracy: accuracy) }
    return events + significantChange(point, accuracy: accuracy)
  }
}
