import Foundation
import Geofencing
import Simulation
import Testing
import TestSupport

@Suite struct MatchBenchmarkTests {
  let directory = TemporaryDirectory()

  func write(_ name: String, _ text: String) -> String { directory.write(name, text) }

  @Test func matchesAndChecksumEqualBruteForceOnPrintedNumbers() throws {
    var random = SystemRandomNumberGenerator()
    var places: [(Int, Double, Double, Double)] = []
    var text = "id,lat,lon,radius_m\n"
    for id in 1...800 {
      let lat = (60.0 + Double.random(in: -0.05...0.05, using: &random)) * 1e7
      let lon = (24.9 + Double.random(in: -0.1...0.1, using: &random)) * 1e7
      let row = (id, lat.rounded() / 1e7, lon.rounded() / 1e7, (Double.random(in: 50...500, using: &random) * 10).rounded() / 10)
      places.append(row)
      text += String(format: "%d,%.7f,%.7f,%.1f\n", row.0, row.1, row.2, row.3)
    }
    let placesPath = write("places.csv", text)
    var fixes: [(Double, Double)] = []
    text = "lat,lon\n"
    for _ in 0..<800 {
      let fix = ((60.0 + Double.random(in: -0.05...0.05, using: &random)) * 1e7).rounded() / 1e7
      let lon = ((24.9 + Double.random(in: -0.1...0.1, using: &random)) * 1e7).rounded() / 1e7
      fixes.append((fix, lon))
      text += String(format: "%.7f,%.7f\n", fix, lon)
    }
    let fixesPath = write("fixes.csv", text)

    var matches = 0
    var sum: UInt64 = 0
    for (lat, lon) in fixes {
      let p1 = Haversine.radians(lat)
      for (id, plat, plon, radius) in places {
        let p2 = Haversine.radians(plat)
        let d = Haversine.distance(phi1: p1, lambda1: Haversine.radians(lon), cosPhi1: cos(p1), phi2: p2, lambda2: Haversine.radians(plon), cosPhi2: cos(p2))
        if d <= radius {
          matches += 1
          sum = (sum + UInt64(id)) % ((1 << 61) - 1)
        }
      }
    }
    let result = try MatchBenchmark.run(placesPath: placesPath, fixesPath: fixesPath)
    #expect(matches > 100)
    #expect(result.matches == matches && result.checksum == sum)
    #expect(result.places == 800 && result.fixes == 800)
    #expect(result.json.contains(#""checksum": \#(sum)"#))
  }

  @Test(arguments: [
    ("id,lat,lon\n1,60,24\n", "header is 'id,lat,lon'"),
    ("id,lat,lon,radius_m\n1,60,24,abc\n", "places.csv:2: field 4 is not a number"),
    ("id,lat,lon,radius_m\n1,60,24\n", "places.csv:2: 3 fields, expected 4"),
    ("id,lat,lon,radius_m\n1,60,24,100\n2,95,24,100\n", "places.csv:3: lat, lon or radius out of range"),
  ])
  func badFilesAreNamedWithTheLine(_ contents: String, _ message: String) {
    let placesPath = write("places.csv", contents)
    let fixesPath = write("fixes.csv", "lat,lon\n60,24\n")
    let error = #expect(throws: (any Error).self) { try MatchBenchmark.run(placesPath: placesPath, fixesPath: fixesPath) }
    #expect("\(error.map { "\($0)" } ?? "")".contains(message))
  }
}
