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

/// GPS on a simulated phone, turned on and off second by second, firing as
/// the engine's sessions confirm: `confirmations` good fixes in a row
/// inside a place's radius (no coarser than the session's limit and the
/// radius), a fix implying an implausible speed ignored, once per visit.
/// A start that brings no fix for `restartAfter` seconds is stopped and
/// started again, as the engine's sessions do, so one failed start does not
/// blind a whole trip.
struct PreciseTracker {
  static let restartAfter = 20
  let trip: Trip
  let places: PlaceSet
  let phone: SimulatedPhone
  let rules = SessionConfig()
  var visits = VisitTracker()
  var result = StrategyRun()
  private var stillSince = 0
  private var tracking = false
  private var waitingSince = 0
  private var lastGood: (point: Coordinate, second: Int)?
  /// Good fixes in a row inside each place (by id).
  private var streaks: [Int: Int] = [:]

  init(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom) {
    var random = random
    self.trip = trip
    self.places = places
    phone = SimulatedPhone(world: world, duration: trip.positions.count, random: random.fork(10))
  }

  /// Moving now, or stopped less than a minute ago (from the true track).
  mutating func moving(_ second: Int) -> Bool {
    if second > 0, trip.positions[second - 1].distance(to: trip.positions[second]) > 0.3 { stillSince = second }
    return second - stillSince < 60
  }

  mutating func step(_ second: Int, tracking wanted: Bool) {
    if wanted, !tracking || second - waitingSince >= Self.restartAfter {
      if tracking { phone.location.stopPreciseUpdates() }
      phone.location.startPreciseUpdates()
      waitingSince = second
    } else if !wanted, tracking {
      phone.location.stopPreciseUpdates()
    }
    tracking = wanted
    guard let fix = phone.location.preciseFix(position: trip.positions[second], at: trip.time(second)) else { return }
    waitingSince = second
    guard fix.accuracy <= rules.fixMaxAccuracy else { return }
    if let last = lastGood, second > last.second,
      last.point.distance(to: fix.point) / Double(second - last.second) > rules.maxPlausibleSpeed
    {
      return
    }
    lastGood = (fix.point, second)
    visits.observe(fix.point, accuracy: fix.accuracy)
    var inside: [Int: Int] = [:]
    places.inside.forEachContaining(latitude: fix.point.latitude, longitude: fix.point.longitude) { id in
      if fix.accuracy <= places.places[id].radius { inside[id] = streaks[id, default: 0] + 1 }
    }
    streaks = inside
    for (id, streak) in inside where streak >= rules.confirmations {
      if visits.arrive(NearestRegionsStrategy.destination(places.places[id]), at: trip.time(second)) {
        result.fires.append((second, id))
      }
    }
  }

  func finish() -> StrategyRun {
    var result = result
    phone.record(into: &result)
    return result
  }
}
