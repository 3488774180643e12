import Domain
import Testing

@Suite struct RadiusPolicyTests {
  @Test(arguments: [25.0, 150, 10_000])
  func acceptsTheBoundsInclusive(_ meters: Double) throws {
    #expect(try RadiusPolicy.standard.validate(meters) == meters)
  }

  @Test(arguments: [24.99, 10_000.01, 0, -5, .nan, .infinity])
  func refusesOutsideTheBounds(_ meters: Double) {
    let error = #expect(throws: DomainError.self) { try RadiusPolicy.standard.validate(meters) }
    #expect(error?.description.contains("allowed 25...10000 m") == true)
  }
}
