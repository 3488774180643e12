import Domain
import Testing

@Suite struct DurationTextTests {
  @Test(arguments: [("90s", 90.0), ("45m", 2700), ("2h", 7200), ("1h30m", 5400), ("1d", 86_400), ("1.5h", 5400)])
  func parses(_ text: String, _ seconds: Double) throws {
    #expect(try DurationText.parse(text) == seconds)
  }

  @Test(arguments: ["", "2", "h", "2x", "-1h", "0m", "400d"])
  func refuses(_ text: String) {
    #expect(throws: DomainError.self) { try DurationText.parse(text) }
  }

  @Test func formatsCompactly() {
    #expect(DurationText.format(5400) == "1h30m")
    #expect(DurationText.format(0) == "0s")
  }
}
