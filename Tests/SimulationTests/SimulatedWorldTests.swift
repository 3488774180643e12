import Domain
import Foundation
import Simulation
import Testing

@Suite struct SimulatedWorldTests {
  let start = Date(timeIntervalSince1970: 1_000_000)
  let here = try! Coordinate(latitude: 60.17, longitude: 24.94)

  var exactOS: WorldConfig { .exactOS }

  @Test func significantChangeNeeds500MetresAnd5MinutesOrComesEvery15Minutes() {
    let location = SimulatedLocation(world: exactOS, random: SimRandom(seed: 3))
    location.startSignificantChanges()
    #expect(location.significantChange(position: here, at: start) != nil, "the first delivery comes at once")
    let far = here.offsetNorth(800)
    #expect(location.significantChange(position: far, at: start.addingTimeInterval(200)) == nil, "too soon")
    #expect(location.significantChange(position: here.offsetNorth(100), at: start.addingTimeInterval(600)) == nil, "too close")
    let fix = location.significantChange(position: far, at: start.addingTimeInterval(601))
    #expect(fix?.accuracy == 65 || fix?.accuracy == 1000, "the OS's own accuracy, Wi-Fi or cell")
    #expect(location.significantChange(position: far, at: start.addingTimeInterval(601 + 899)) == nil)
    #expect(location.significantChange(position: far, at: start.addingTimeInterval(601 + 900)) != nil, "a wake every 15 minutes without moving")
    #expect(location.wakes == 3)
  }

  @Test func preciseFixesComeAfterAFirstFixAndAThirdFallOutsideTheirAccuracy() throws {
    var world = WorldConfig()
    world.gps.noFixChance = 0
    world.gps.backgroundStartFailure = 0
    world.gps.outlierChance = 0
    // Outdoors: standing still this long is otherwise taken as being inside.
    world.gps.indoorAfter = 1e9
    let location = SimulatedLocation(world: world, random: SimRandom(seed: 4))
    #expect(location.preciseFix(position: here, at: start) == nil, "off until started")
    location.startPreciseUpdates()
    var fixes: [SimulatedLocation.Fix] = []
    for t in 0..<3000 {
      if let fix = location.preciseFix(position: here, at: start.addingTimeInterval(Double(t))) { fixes.append(fix) }
    }
    #expect(fixes.count > 2900 && fixes.count < 3000, "a time to first fix, then 1 Hz")
    #expect(location.preciseSeconds == 3000)
    let accuracies = fixes.map(\.accuracy).sorted()
    #expect(abs(accuracies[accuracies.count / 2] - 32) < 4, "median accuracy as in the real trace")
    let inside = Double(fixes.filter { $0.point.distance(to: here) <= $0.accuracy }.count) / Double(fixes.count)
    #expect(abs(inside - 0.68) < 0.04, "accuracy is a 68 % radius, saw \(inside)")
  }

  /// Inside a building each stay either lets satellites in, with worse
  /// accuracy, or gives the OS's Wi-Fi or cell position as every fix.
  @Test func indoorsAStayLetsGPSInWorseOrNotAtAll() throws {
    var world = WorldConfig()
    world.gps.noFixChance = 0
    world.gps.backgroundStartFailure = 0
    world.gps.outlierChance = 0
    var kinds: [String: Int] = [:]
    for seed in 0..<40 {
      let location = SimulatedLocation(world: world, random: SimRandom(seed: UInt64(seed)))
      location.startPreciseUpdates()
      var early: [Double] = []
      var late: [Double] = []
      for t in 0..<600 {
        guard let fix = location.preciseFix(position: here, at: start.addingTimeInterval(Double(t))) else { continue }
        if t < 55 { early.append(fix.accuracy) } else if t > 65 { late.append(fix.accuracy) }
      }
      let coarse = late.allSatisfy { $0 == 65 || $0 == 1000 }
      kinds[coarse ? "coarse" : "gps", default: 0] += 1
      if !coarse { #expect(late.sorted()[late.count / 2] > 45, "GPS indoors is worse: median \(late.sorted()[late.count / 2]) m") }
      #expect(!early.contains { $0 == 65 || $0 == 1000 }, "the first minute is outdoors")
    }
    #expect(kinds["coarse", default: 0] >= 10 && kinds["gps", default: 0] >= 10, "about half of the stays each way: \(kinds)")
  }

  @Test func aBackgroundStartCanFailAndThenNoFixComes() {
    var world = WorldConfig()
    world.gps.backgroundStartFailure = 1
    let location = SimulatedLocation(world: world, random: SimRandom(seed: 4))
    location.startPreciseUpdates()
    let fixes = (0..<120).compactMap { location.preciseFix(position: here, at: start.addingTimeInterval(Double($0))) }
    #expect(fixes.isEmpty)
    #expect(location.preciseSeconds == 120, "the GPS was on (and charged) all the same")
  }

  @Test func aWorldFileOverridesOnlyWhatItNamesAndRejectsUnknownKeys() throws {
    let path = NSTemporaryDirectory() + "world-\(UUID().uuidString).json"
    _ = FileManager.default.createFile(atPath: path, contents: Data(#"{"name": "harsh", "regionMonitoring": {"latencyWiFiMedian": 120}}"#.utf8))
    let world = try WorldConfig.load(path)
    #expect(world.name == "harsh" && world.regionMonitoring.latencyWiFiMedian == 120 && world.regionMonitoring.capacity == 20)
    #expect(world.hash != WorldConfig().hash)
    _ = FileManager.default.createFile(atPath: path, contents: Data(#"{"regionMonitoring": {"latency": 1}}"#.utf8))
    let error = #expect(throws: ScenarioError.self) { try WorldConfig.load(path) }
    #expect(error?.message.contains("unknown key 'regionMonitoring.latency'") == true)
    #expect(error?.description.hasPrefix("world file \(path): ") == true, "\(String(describing: error))")
  }

  @Test func aDayStartsAndEndsAtHomeFollowsStreetsAndTruthFindsItsVisits() throws {
    let graph = StreetGraph.grid(center: here)
    var random = SimRandom(seed: 5)
    let places = PlaceSet.make(count: 200, localCount: 20, pois: [], graph: graph, random: &random)
    var world = WorldConfig()
    world.people.passByShare = 0
    world.people.otherStopShare = 0
    let generator = TripGenerator(graph: graph, places: places, people: world.people)
    for _ in 0..<3 {
      let day = generator.day(start: start, random: &random)
      #expect(day.positions.count == 86_400, "a day is a whole day")
      #expect(day.positions.first == day.positions.last, "it starts and ends at home")
      #expect(day.positions[3600] == day.positions[0], "the night is spent at home")
      // No teleporting: consecutive seconds are at most a fast car apart.
      for i in 1..<day.positions.count {
        #expect(day.positions[i - 1].distance(to: day.positions[i]) <= world.people.drivingMax + 1)
      }
      let truth = GroundTruth(trip: day, places: places)
      let planned = Set(day.plannedStops.map(\.place).map { places.taskOf[$0] })
      let visited = Set(truth.episodes.filter { $0.kind == .visit }.map(\.task))
      #expect(!planned.isEmpty)
      #expect(planned.isSubset(of: visited), "every planned visit shows up in the truth")
    }
  }

  @Test func theMotionHistorySaysStillOnlyAfterAWhileAndALightIsNotStillness() {
    let motion = SimulatedMotion(config: WorldConfig.Motion())
    var second = 0
    var walked = 0.0
    var changes: [(Int, Bool)] = []
    func hold(_ seconds: Int, moving: Bool) {
      for _ in 0..<seconds {
        if moving { walked += 1.4 }
        let position = here.offsetNorth(walked)
        if let still = motion.step(second: second, position: position) { changes.append((second, still)) }
        second += 1
      }
    }
    hold(10, moving: true)
    // A 60 s traffic light (calibration: 30–60 s) is not a stop.
    hold(60, moving: false)
    hold(60, moving: true)
    #expect(changes.isEmpty, "\(changes)")
    hold(600, moving: false)
    #expect(changes.map(\.1) == [true])
    #expect(changes.first.map { $0.0 - 130 } == Int(WorldConfig.Motion().stillAfter), "still after stillAfter seconds")
    hold(60, moving: true)
    #expect(changes.map(\.1) == [true, false])
  }
}

extension WorldConfig {
  /// A world whose OS position has no error, so the delivery rules show on their own.
  static var exactOS: WorldConfig {
    var world = WorldConfig()
    world.coarsePosition.wifiSigma = 0
    world.coarsePosition.cellSigma = 0
    world.coarsePosition.jumpsPerHour = 0
    return world
  }
}

extension Coordinate {
  func offsetNorth(_ meters: Double) -> Coordinate {
    try! Coordinate(latitude: latitude + meters / 111_195, longitude: longitude)
  }
}
