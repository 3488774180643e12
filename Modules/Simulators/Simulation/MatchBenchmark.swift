import Foundation
import Importing
import Geofencing

/// `whilehere-sim bench match`: the spatial index alone, on the places.csv
/// and fixes.csv that ../shared/bench/gen.py writes (the files peers such as
/// PostGIS and Redis are measured on). The checksum is gen.py's: the number
/// of (fix, place) matches and the sum of matched ids mod 2^61-1.
public enum MatchBenchmark {
  public struct Result: Sendable, Equatable {
    public var places: Int
    public var fixes: Int
    /// Reading places.csv and building the index (as grid.c's `load_s`).
    public var loadSeconds: Double
    public var matchSeconds: Double
    /// Reading fixes.csv, in neither of the others (grid.c's `fixes_load_s`).
    public var fixesLoadSeconds: Double
    public var matches: Int
    public var checksum: UInt64

    public var json: String {
      let rate = matchSeconds > 0 ? Double(fixes) / matchSeconds : 0
      return #"{"engine": "whilehere-circle-grid", "places": \#(places), "fixes": \#(fixes), "load_s": \#(round3(loadSeconds)), "match_s": \#(round3(matchSeconds)), "fixes_per_s": \#(Int(rate.rounded())), "matches": \#(matches), "checksum": \#(checksum), "fixes_load_s": \#(round3(fixesLoadSeconds))}"#
    }

    func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
  }

  static let modulus: UInt64 = (1 << 61) - 1
  public static let defaultCell = 0.01

  public static func run(placesPath: String, fixesPath: String, cellDegrees: Double = defaultCell) throws -> Result {
    let clock = ContinuousClock()
    var index = CircleIndex(cellDegrees: cellDegrees)
    var fixes: [(Double, Double)] = []
    let load = try clock.measure {
      // Straight into circles, as grid.c parses into its places.
      var circles: [CircleIndex.Circle] = []
      try CSVTable.rows(placesPath, columns: ["id", "lat", "lon", "radius_m"], reserve: { circles.reserveCapacity($0) }) { row, line in
        let (key, lat, lon, radius) = (row[0], row[1], row[2], row[3])
        guard let id = Int(exactly: key), id >= 0 else {
          throw CSVTable.Failure(path: placesPath, line: line, message: "id \(key) is not a whole number")
        }
        guard abs(lat) <= 90, abs(lon) <= 180, radius > 0 else {
          throw CSVTable.Failure(path: placesPath, line: line, message: "lat, lon or radius out of range")
        }
        circles.append(CircleIndex.Circle(key: id, latitude: lat, longitude: lon, radius: radius))
      }
      index.insert(contentsOf: circles)
    }
    let fixesLoad = try clock.measure {
      let table = try CSVTable.read(fixesPath, columns: ["lat", "lon"])
      fixes = (0..<table.count).map { (table[$0, 0], table[$0, 1]) }
    }
    var matches = 0
    var sum: UInt64 = 0
    // A constant: the closure capturing the `var` copied the whole index
    // (a retain of each of its arrays) for every fix, a tenth of the time.
    let loaded = index
    let match = clock.measure {
      for (lat, lon) in fixes {
        loaded.forEachContaining(latitude: lat, longitude: lon) { id in
          matches += 1
          sum = (sum + UInt64(id) % modulus) % modulus
        }
      }
    }
    return Result(
      places: loaded.count, fixes: fixes.count, loadSeconds: seconds(load), matchSeconds: seconds(match),
      fixesLoadSeconds: seconds(fixesLoad), matches: matches, checksum: sum)
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
