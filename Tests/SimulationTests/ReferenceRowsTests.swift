import Domain
import Foundation
import Testing

@testable import Simulation

/// The rows the engine is compared with: GPS whenever the person moves, and
/// GPS exactly when the true track is near a place (the ceiling).
@Suite struct ReferenceRowsTests {
  static let start = try! Coordinate(latitude: 60.17, longitude: 24.94)
  static func east(_ meters: Double) -> Coordinate {
    try! Coordinate(latitude: start.latitude, longitude: start.longitude + meters / (111_320 * cos(start.latitude * .pi / 180)))
  }

  /// A 2 km walk east at 1.4 m/s past one place 1 km along.
  let walk = Trip(mode: .walking, start: Date(timeIntervalSince1970: 0), positions: (0..<1430).map { east(Double($0) * 1.4) }, plannedStops: [])
  let places = PlaceSet(places: [PlaceSet.Place(id: 0, name: "on the way", center: east(1000), radius: 50, reachable: true)])

  @Test func theOracleTracksOnlyNearAPlaceAndCatchesIt() {
    let oracle = OracleGPSStrategy().run(trip: walk, world: .calmPhone, places: places, random: SimRandom(seed: 1))
    let continuous = ContinuousGPSStrategy().run(trip: walk, world: .calmPhone, places: places, random: SimRandom(seed: 1))
    #expect(oracle.fires.contains { $0.place == 0 })
    #expect(continuous.fires.contains { $0.place == 0 })
    // From 200 m before the place's centre until the fire: at most the
    // approach (150 m beyond the radius) and the radius, walked at 1.4 m/s.
    #expect(oracle.preciseSeconds <= (OracleGPSStrategy.reach + 2 * 50) / 1.4 + 1)
    #expect(oracle.preciseSeconds > 0)
    #expect(continuous.preciseSeconds >= 1400)
  }

  /// A start that brings no fix is tried again: with every other start
  /// failing, each of twenty walks still catches the place 700 s along.
  @Test func aStartWithoutAFixIsTriedAgain() {
    var world = WorldConfig.calmPhone
    world.gps.noFixChance = 0.5
    var blindWalks = 0
    for seed in 1...20 {
      let run = ContinuousGPSStrategy().run(trip: walk, world: world, places: places, random: SimRandom(seed: UInt64(seed)))
      if !run.fires.contains(where: { $0.place == 0 }) { blindWalks += 1 }
    }
    #expect(blindWalks == 0)
  }
}
