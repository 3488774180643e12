import Domain
import Engine
import Testing
import TestSupport

@Suite struct CheckServiceTests {
  @Test(arguments: [(99.0, true), (100.0, true), (101.0, false)])
  func theRadiusBoundaryIsInclusive(metersAway: Double, fires: Bool) throws {
    let h = EngineHarness()
    var spec = EngineHarness.at(0, 0)
    spec.radius = 100
    _ = try h.engine.tasks.add(title: "Edge", locations: [spec])
    // Along the equator one degree of longitude is R·π/180 metres.
    let degrees = metersAway / (Coordinate.earthRadiusMeters * .pi / 180)
    let point = try Coordinate(latitude: 0, longitude: degrees)
    #expect(try h.engine.check.check(at: point).isEmpty == !fires)
  }

  @Test func overlappingPlacesAreListedNearestFirst() throws {
    let h = EngineHarness()
    var wide = EngineHarness.at(60.1699, 24.9384)
    wide.radius = 500
    var close = EngineHarness.at(60.1700, 24.9385)
    close.radius = 50
    _ = try h.engine.tasks.add(title: "Wide", locations: [wide])
    _ = try h.engine.tasks.add(title: "Close", locations: [close])
    let hits = try h.engine.check.check(at: try Coordinate(latitude: 60.1700, longitude: 24.9386))
    #expect(hits.map(\.task.title) == ["Close", "Wide"])
  }

  @Test func placesAcrossTheAntimeridianFire() throws {
    let h = EngineHarness()
    var spec = EngineHarness.at(-16.5, 179.9999)
    spec.radius = 100
    _ = try h.engine.tasks.add(title: "Fiji", locations: [spec])
    #expect(try h.engine.check.check(at: try Coordinate(latitude: -16.5, longitude: -179.9995)).count == 1)
  }
}
