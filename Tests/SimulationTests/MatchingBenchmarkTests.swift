import Composition
import Foundation
import Simulation
import Testing
import TestSupport

@Suite struct MatchingBenchmarkTests {
  @Test(.enabled(if: SharedData.available, "needs ../shared/data beside the project")) func theTakeoutFixturesMeetTheAims() throws {
    let directory = "../shared/data/takeout"
    try #require(FileManager.default.fileExists(atPath: directory + "/truth.json"), "needs ../shared/data/takeout beside the project")
    let provider = try ProviderRegistry.standard.placeProvider("osm-geojson:../shared/data/helsinki-pois.geojson", environment: [:])
    let report = try MatchingBenchmark.run(takeout: directory, provider: provider)
    #expect(report.rows > 80 && report.rowsWithTruth > 70)
    #expect(report.precision >= 0.98, "a wrong automatic match is worse than a question: \(report.wrong)")
    #expect(report.topThreeRate >= 0.95, "missed: \(report.missed)")
    #expect(report.recall > 0.5)
  }
}
