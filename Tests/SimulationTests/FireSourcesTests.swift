import Domain
import Foundation
import Testing

@testable import Simulation

/// `--explain` says, for each engine row, what the phone handed the engine
/// in the moment each fire came, and how many of those fires were false.
@Suite struct FireSourcesTests {
  let walk = ReferenceRowsTests().walk
  let places = ReferenceRowsTests().places

  /// The walk with five minutes in the place on the way.
  var visit: Trip {
    let stop = 1000 / 1.4
    let positions = walk.positions[..<Int(stop)] + Array(repeating: ReferenceRowsTests.east(1000), count: 300) + walk.positions[Int(stop)...]
    return Trip(mode: .walking, start: walk.start, positions: Array(positions), plannedStops: [])
  }

  /// GPS of open sky (the calm phone's urban 32 m median error can make
  /// one fix look like walking past, and this is not about that).
  var clearSky: WorldConfig {
    var world = WorldConfig.calmPhone
    world.gps.accuracyMedian = 5
    world.gps.accuracyP90 = 10
    world.gps.outlierChance = 0
    return world
  }

  @Test func everyFireOfTheEngineSaysWhatSetItOff() {
    let run = SeedStrategy.shipped.run(trip: visit, world: clearSky, places: places, random: SimRandom(seed: 1))
    #expect(run.fires.contains { $0.place == 0 }, "\(run.notes)")
    #expect(run.fireSources.count == run.fires.count)
    let known = [
      "a session's GPS fix", "a single GPS fix (wake-up or confirming)", "a followed (reduced-accuracy) position", "an OS region event",
      "the engine's timers", "a visit (CLVisit)", "a significant change", "a movement watch's GPS fix",
    ]
    #expect(run.fireSources.allSatisfy(known.contains), "\(run.fireSources)")
  }

  /// One fire inside the place and one 960 m past it, long after: the
  /// second is the false alarm, counted under its own source.
  @Test func aFireFarFromItsPlaceIsAFalseAlarmOfItsSource() {
    var run = StrategyRun()
    run.fires = [(700, 0), (1400, 0)]
    run.fireSources = ["inside", "far"]
    var score = DetectionScore(strategy: "engine")
    score.add(run, truth: GroundTruth(trip: walk, places: places), taskOf: [0], trip: walk)
    #expect(score.firesBySource["inside"]?.fires == 1 && score.firesBySource["inside"]?.falseAlarms == 0)
    #expect(score.firesBySource["far"]?.fires == 1 && score.firesBySource["far"]?.falseAlarms == 1)
    #expect(score.sourceLines().contains { $0.contains("far") })
  }
}
