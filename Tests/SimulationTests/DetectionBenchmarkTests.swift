import Foundation
import Simulation
import Testing

/// End to end on small seeded worlds: every strategy stays within the OS
/// region cap, the arrival engine beats the baselines it was built to beat,
/// and the same seed gives the same table.
@Suite struct DetectionBenchmarkTests {
  func options(seed: UInt64 = 3) -> DetectionBenchmark.Options {
    var options = DetectionBenchmark.Options()
    options.places = 2000
    options.trips = 6
    options.seed = seed
    return options
  }

  func score(_ report: DetectionBenchmark.Report, _ name: String) -> DetectionScore {
    report.scores.first { $0.strategy == name }!
  }

  @Test func theRegionCapIsNeverExceeded() throws {
    let report = try DetectionBenchmark.run(options())
    for score in report.scores {
      #expect(score.peakRegions <= 20, "\(score.strategy) installed \(score.peakRegions)")
    }
    #expect(score(report, "whilehere").regionFailures == 0)
    #expect(score(report, "whilehere").visits > 20, "the trips must contain visits to judge")
  }

  @Test func theShippedEngineBeatsTheBaselinesAndTheDesignCard() throws {
    let report = try DetectionBenchmark.run(options())
    let shipped = score(report, "whilehere")
    let recall = Double(shipped.visitsCaught) / Double(shipped.visits)
    for baseline in ["os-nearest-20", "bubble-19", "seed"] {
      let other = score(report, baseline)
      #expect(recall > Double(other.visitsCaught) / Double(other.visits), "whilehere vs \(baseline)")
    }
    #expect(recall >= 0.5)
    let gps = score(report, "continuous-gps")
    #expect(shipped.preciseSeconds < gps.preciseSeconds / 2, "it must cost far less than tracking all the time")
    #expect(Double(shipped.falseAlarms) <= Double(max(shipped.fires, 1)) * 0.02)
  }

  @Test func theSameSeedGivesTheSameTable() throws {
    let a = try DetectionBenchmark.run(options(seed: 9))
    let b = try DetectionBenchmark.run(options(seed: 9))
    // Everything but the wall-clock speed must repeat exactly.
    func outcome(_ report: DetectionBenchmark.Report) -> [String] {
      report.scores.map {
        "\($0.strategy) \($0.visitsCaught)/\($0.visits) \($0.passBysCaught)/\($0.passBys) \($0.delays) \($0.fires) \($0.falseAlarms) \($0.preciseSeconds) \($0.replans) \($0.peakRegions)"
      }
    }
    #expect(outcome(a) == outcome(b))
    #expect(a.scores.allSatisfy { $0.trips == 6 })
  }
}
