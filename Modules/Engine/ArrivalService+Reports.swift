import Domain
import Foundation
import Geofencing

extension ArrivalService {
  /// A location a device reported on its own schedule (a phone over
  /// OwnTracks, a GPS): every live destination whose circle holds it fires
  /// when the fix is accurate enough, a running session takes it as a
  /// precise fix, and the plan follows as after a significant change.
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
      return holding.sorted { $0.priority < $1.priority }.flatMap { destination -> [ArrivalEvent] in
        let distance = point.distance(to: destination.center)
        guard distance <= destination.radius, accuracy <= max(config.session.fixMaxAccuracy, destination.radius) else { return [] }
        return fire(destination, distance: distance)
      }
    }
    if mayFire, !restoring, sessionRunning { events += preciseFix(point, accuracy: accuracy) }
    return events + significantChange(point, accuracy: accuracy)
  }
}
