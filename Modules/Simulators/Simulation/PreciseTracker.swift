import Domain
import Foundation
import Geofencing

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
