import Domain
import Simulation
import Testing

@Suite struct WalkPathTests {
  @Test func samplesAtTheIntervalAndPausesInPlace() throws {
    // Two points 111.2 m apart (0.001° of latitude), walked at 1 m/s, then a 20 s pause.
    let walk = Scenario.Walk(
      speed: 1,
      waypoints: [
        .init(lat: 0, lon: 0, pause: nil, label: nil), .init(lat: 0.001, lon: 0, pause: 20, label: "shop"),
      ])
    let path = try WalkPath(walk, interval: 10)
    #expect(path.samples.map(\.elapsed) == stride(from: 0.0, through: 130, by: 10).map { $0 })
    #expect(path.samples.last?.pausedAt == "shop")
    #expect(path.samples.last?.position == (try Coordinate(latitude: 0.001, longitude: 0)))
    #expect(path.samples[5].pausedAt == nil)
  }

  @Test func refusesNonsense() {
    #expect(throws: ScenarioError.self) { try WalkPath(Scenario.Walk(speed: 0, waypoints: [.init(lat: 0, lon: 0)])) }
    #expect(throws: ScenarioError.self) { try WalkPath(Scenario.Walk(speed: 1, waypoints: [])) }
    #expect(throws: DomainError.self) { try WalkPath(Scenario.Walk(speed: 1, waypoints: [.init(lat: 91, lon: 0)])) }
  }
}
