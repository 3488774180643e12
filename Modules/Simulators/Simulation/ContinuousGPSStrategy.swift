import Domain
import Foundation
import Geofencing

/// The ceiling and the cost to avoid (`continuous-gps`): precise tracking
/// whenever the person moves (and for a minute after they stop), confirmed
/// as the engine's sessions confirm (`PreciseTracker`).
public struct ContinuousGPSStrategy: DetectionStrategy {
  public let name = "continuous-gps"
  public init() {}

  public func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom) -> StrategyRun {
    var tracker = PreciseTracker(trip: trip, world: world, places: places, random: random)
    for second in trip.positions.indices {
      tracker.step(second, tracking: tracker.moving(second))
    }
    return tracker.finish()
  }
}
