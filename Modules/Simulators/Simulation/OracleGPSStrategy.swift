import Domain
import Foundation
import Geofencing

/// GPS only where it can catch something (`oracle-gps`): while the person,
/// moving, is within `reach` of a place whose task is not being visited,
/// known from the true track, which no real phone has. It catches about
/// what `continuous-gps` catches; its GPS minutes are what the catching costs
/// when nothing is spent on not knowing where the person is.
public struct OracleGPSStrategy: DetectionStrategy {
  public let name = "oracle-gps"
  /// Metres beyond a place's radius: a walker's 100 s, a driver's 10 s,
  /// both longer than the first fix's median of 4 s.
  public static let reach = 150.0
  public init() {}

  public func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom) -> StrategyRun {
    var tracker = PreciseTracker(trip: trip, world: world, places: places, random: random)
    var approach = CircleIndex()
    approach.reserveCapacity(places.places.count)
    for place in places.places {
      approach.insert(key: place.id, latitude: place.center.latitude, longitude: place.center.longitude, radius: place.radius + Self.reach)
    }
    for (second, position) in trip.positions.enumerated() {
      var wanted = false
      if tracker.moving(second) {
        approach.forEachContaining(latitude: position.latitude, longitude: position.longitude) { id in
          if !wanted, !tracker.visits.isVisiting(NearestRegionsStrategy.destination(places.places[id]).task) { wanted = true }
        }
      }
      tracker.step(second, tracking: wanted)
    }
    return tracker.finish()
  }
}
