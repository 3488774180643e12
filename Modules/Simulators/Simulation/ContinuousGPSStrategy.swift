import Domain
import Foundation
import Geofencing

/// The upper bound and the cost to avoid (`continuous-gps`): precise
/// tracking whenever the person moves (and for a minute after they stop),
/// firing on any good fix inside a place's radius.
public struct ContinuousGPSStrategy: DetectionStrategy {
  public let name = "continuous-gps"
  public init() {}

  public func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom) -> StrategyRun {
    var random = random
    let phone = SimulatedPhone(world: world, duration: trip.positions.count, random: random.fork(10))
    var result = StrategyRun()
    var visits = VisitTracker()
    var stillSince = 0
    let fixMaxAccuracy = SessionConfig().fixMaxAccuracy
    for (second, position) in trip.positions.enumerated() {
      if second > 0, trip.positions[second - 1].distance(to: position) > 0.3 { stillSince = second }
      if second - stillSince < 60 { phone.location.startPreciseUpdates() } else { phone.location.stopPreciseUpdates() }
      guard let fix = phone.location.preciseFix(position: position, at: trip.time(second)) else { continue }
      visits.observe(fix.point, accuracy: fix.accuracy)
      guard fix.accuracy <= fixMaxAccuracy else { continue }
      places.inside.forEachContaining(latitude: fix.point.latitude, longitude: fix.point.longitude) { id in
        let place = places.places[id]
        if fix.accuracy <= place.radius, visits.arrive(NearestRegionsStrategy.destination(place), at: trip.time(second)) {
          result.fires.append((second, id))
        }
      }
    }
    phone.record(into: &result)
    return result
  }
}
