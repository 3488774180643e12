import Domain
import Testing

@Suite struct CoordinateTests {
  @Test(arguments: [
    (90.0, 180.0), (-90.0, -180.0), (0.0, 0.0), (60.1699, 24.9384),
  ])
  func acceptsTheWholeValidRange(lat: Double, lon: Double) throws {
    let coordinate = try Coordinate(latitude: lat, longitude: lon)
    #expect(coordinate.latitude == lat && coordinate.longitude == lon)
  }

  @Test(arguments: [
    (90.0001, 0.0), (-91.0, 0.0), (0.0, 180.5), (0.0, -181.0), (Double.nan, 0.0), (0.0, Double.infinity),
  ])
  func refusesOutOfRangeOrNonFinite(lat: Double, lon: Double) {
    #expect(throws: DomainError.self) { try Coordinate(latitude: lat, longitude: lon) }
  }

  @Test(arguments: ["60.1699,24.9384", " 60.1699 , 24.9384 ", "-33.9,18.4"])
  func parsesWhatPeopleType(_ text: String) throws {
    _ = try Coordinate(parsing: text)
  }

  @Test(arguments: ["60.1699", "60.1699,24.9,1", "abc,def", "", "95,10", "nan,1"])
  func refusesMalformedTextNamingIt(_ text: String) {
    let error = #expect(throws: DomainError.self) { try Coordinate(parsing: text) }
    #expect(error?.description.contains("'\(text)'") == true)
  }

  @Test func distanceMatchesAKnownPair() throws {
    // Helsinki railway station to Helsinki Cathedral: about 600 m.
    let station = try Coordinate(latitude: 60.1710, longitude: 24.9414)
    let cathedral = try Coordinate(latitude: 60.1702, longitude: 24.9522)
    #expect(abs(station.distance(to: cathedral) - 600) < 30)
  }

  @Test func distanceAcrossTheAntimeridianIsShort() throws {
    let west = try Coordinate(latitude: 0, longitude: 179.9995)
    let east = try Coordinate(latitude: 0, longitude: -179.9995)
    #expect(abs(west.distance(to: east) - 111.2) < 1)
  }

  @Test func distanceAtThePoleIgnoresLongitude() throws {
    let a = try Coordinate(latitude: 90, longitude: 0)
    let b = try Coordinate(latitude: 90, longitude: 120)
    #expect(a.distance(to: b) < 1e-6)
  }
}
