import Domain
import Foundation
import Simulation
import Testing

@Suite struct SimulatedWorldTests {
  let start = Date(timeIntervalSince1970: 1_000_000)
  let here = try! Coordinate(latitude: 60.17, longitude: 24.94)

  @Test func significantChangeNeeds500MetresAnd5Minutes() {
    let location = SimulatedLocation(world: WorldConfig(), random: SimRandom(seed: 3))
    #expect(location.significantChange(position: here, at: start) != nil, "the first delivery comes at once")
    let far = here.offsetNorth(800)
    #expect(location.significantChange(position: far, at: start.addingTimeInterval(200)) == nil, "too soon")
    #expect(location.significantChange(position: here.offsetNorth(100), at: start.addingTimeInterval(600)) == nil, "too close")
    let fix = location.significantChange(position: far, at: start.addingTimeInterval(301))
    #expect(fix?.accuracy == 150)
  }

  @Test func preciseFixesComeAfterAFirstFixAndAreCounted() throws {
    var world = WorldConfig()
    world.gps.noFixChance = 0
    world.gps.outlierChance = 0
    let location = SimulatedLocation(world: world, random: SimRandom(seed: 4))
    #expect(location.preciseFix(position: here, at: start) == nil, "off until started")
    location.startPreciseUpdates()
    var fixes: [SimulatedLocation.Fix] = []
    for t in 0..<60 {
      if let fix = location.preciseFix(position: here, at: start.addingTimeInterval(Double(t))) { fixes.append(fix) }
    }
    #expect(fixes.count > 20 && fixes.count < 60, "a time to first fix, then 1 Hz")
    #expect(fixes.allSatisfy { $0.accuracy >= 5 && $0.accuracy <= 20 })
    #expect(location.preciseSeconds == 60)
  }

  @Test func aWorldFileOverridesOnlyWhatItNamesAndRejectsUnknownKeys() throws {
    let path = NSTemporaryDirectory() + "world-\(UUID().uuidString).json"
    _ = FileManager.default.createFile(atPath: path, contents: Data(#"{"name": "harsh", "regionMonitoring": {"latencyMedian": 120}}"#.utf8))
    let world = try WorldConfig.load(path)
    #expect(world.name == "harsh" && world.regionMonitoring.latencyMedian == 120 && world.regionMonitoring.capacity == 20)
    #expect(world.hash != WorldConfig().hash)
    _ = FileManager.default.createFile(atPath: path, contents: Data(#"{"regionMonitoring": {"latency": 1}}"#.utf8))
    let error = #expect(throws: ScenarioError.self) { try WorldConfig.load(path) }
    #expect(error?.message.contains("unknown key 'regionMonitoring.latency'") == true)
  }

  @Test func tripsFollowStreetsAndTruthFindsTheirVisits() throws {
    let graph = StreetGraph.grid(center: here)
    var random = SimRandom(seed: 5)
    let places = PlaceSet.make(count: 200, localCount: 20, pois: [], graph: graph, random: &random)
    var world = WorldConfig()
    world.people.passByShare = 0
    let trip = TripGenerator(graph: graph, places: places, people: world.people).trip(start: start, random: &random)
    #expect(trip.positions.count > 600)
    // No teleporting: consecutive seconds are at most a fast car apart.
    for i in 1..<trip.positions.count {
      #expect(trip.positions[i - 1].distance(to: trip.positions[i]) <= 12)
    }
    let truth = GroundTruth(trip: trip, places: places)
    let planned = Set(trip.plannedStops.map(\.place))
    let visited = Set(truth.episodes.filter { $0.kind == .visit }.map(\.place))
    #expect(planned.isSubset(of: visited), "every planned visit shows up in the truth")
  }
}

extension Coordinate {
  func offsetNorth(_ meters: Double) -> Coordinate {
    try! Coordinate(latitude: latitude + meters / 111_195, longitude: longitude)
  }
}
