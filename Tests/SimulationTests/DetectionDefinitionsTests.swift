import Domain
import Foundation
import Simulation
import Testing

/// The benchmark's definitions, read plainly: a fire counts from 30 s
/// before the first second inside to the last; runs inside less than 60 s
/// apart are one interval; visits last ≥ 2 min, pass-bys ≥ 20 s; a fire is
/// a false alarm when the person was nowhere within radius + 50 m of the
/// task's places in the 5 minutes before it.
@Suite struct DetectionDefinitionsTests {
  static let center = try! Coordinate(latitude: 60.17, longitude: 24.94)
  static func north(_ meters: Double) -> Coordinate { try! Coordinate(latitude: center.latitude + meters / 111_195, longitude: center.longitude) }

  /// Far, inside 100 s, out to 80 m (near) for 40 s, inside 50 s, far,
  /// inside 30 s at 1000, far again.
  let trip: Trip = {
    var positions: [Coordinate] = []
    func add(_ seconds: Int, _ meters: Double) { positions += Array(repeating: north(meters), count: seconds) }
    add(100, 500)
    add(100, 0)
    add(40, 80)
    add(50, 0)
    add(710, 500)
    add(30, 0)
    add(970, 500)
    return Trip(mode: .walking, start: Date(timeIntervalSince1970: 0), positions: positions, plannedStops: [])
  }()

  let places = PlaceSet(places: [PlaceSet.Place(id: 0, name: "shop", center: center, radius: 50, reachable: true)])

  func score(fires: [Int]) -> DetectionScore {
    var run = StrategyRun()
    run.fires = fires.map { ($0, 0) }
    var score = DetectionScore(strategy: "test")
    score.add(run, truth: GroundTruth(trip: trip, places: places), taskOf: places.taskOf)
    return score
  }

  @Test func insideRunsLessThanAMinuteApartAreOneVisitAndShortOnesArePassBys() {
    let truth = GroundTruth(trip: trip, places: places)
    #expect(truth.episodes.map(\.kind) == [.visit, .passBy])
    #expect(truth.episodes.map(\.enter) == [100, 1000])
    #expect(truth.episodes.map(\.leave) == [289, 1029])
  }

  @Test func aFireCountsFrom30SecondsBeforeEnteringToTheLastSecondInside() {
    let early = score(fires: [71, 1029])
    #expect(early.visitsCaught == 1 && early.passBysCaught == 1)
    #expect(early.delays == [-29, 29])
    let tooEarly = score(fires: [69])
    #expect(tooEarly.visitsCaught == 0)
  }

  @Test func aLateFireIsAMissButNotAFalseAlarm() {
    let late = score(fires: [1035])
    #expect(late.passBys == 1 && late.passBysCaught == 0)
    #expect(late.falseAlarms == 0, "the person was near within the 5 minutes before")
  }

  @Test func aFireFarFromEveryPlaceOfTheTaskIsAFalseAlarm() {
    // At 69 the person has been 500 m away since the day began; at 1500 they left 470 s ago.
    let far = score(fires: [69, 1500, 150])
    #expect(far.falseAlarms == 2)
    #expect(far.fires == 3)
  }

  @Test func taskDayRecallCountsADayWithAnyIntervalHit() {
    #expect(score(fires: [1010]).taskDays == 1)
    #expect(score(fires: [1010]).taskDaysHit == 1)
    #expect(score(fires: []).taskDaysHit == 0)
  }

  @Test func aTaskWithSeveralPlacesIsInsideWhenInsideAnyOfThem() {
    // Two places of one task, 100 m apart: walking from one to the other is one interval.
    let two = PlaceSet(
      places: [
        PlaceSet.Place(id: 0, name: "a", center: Self.center, radius: 60, reachable: true),
        PlaceSet.Place(id: 1, name: "b", center: Self.north(100), radius: 60, reachable: true),
      ], taskOf: [0, 0])
    let walk = Trip(
      mode: .walking, start: Date(timeIntervalSince1970: 0),
      positions: (0..<200).map { Self.north(Double($0) * 0.5) }, plannedStops: [])
    let truth = GroundTruth(trip: walk, places: two)
    #expect(truth.episodes.count == 1)
    #expect(truth.episodes.first?.task == 0 && truth.episodes.first?.enter == 0 && truth.episodes.first?.leave == 199)
  }
}
