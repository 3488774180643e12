import Foundation
import Geofencing
import Simulation
import Testing

/// End to end on small seeded worlds of whole days: every strategy stays
/// within the OS region cap, the engine's GPS time (sessions and wake-up
/// fixes alike) stays within its allowance, confirmed arrivals keep false
/// alarms down, and the same seed gives the same table.
@Suite struct DetectionBenchmarkTests {
  func options(seed: UInt64 = 3) -> DetectionBenchmark.Options {
    var options = DetectionBenchmark.Options()
    options.places = 2000
    options.trips = 3
    options.seed = seed
    return options
  }

  func score(_ report: DetectionBenchmark.Report, _ name: String) -> DetectionScore {
    report.scores.first { $0.strategy == name }!
  }

  @Test func theRegionCapIsNeverExceeded() throws {
    let report = try DetectionBenchmark.run(options())
    for score in report.scores {
      let cap = score.strategy == "whilehere-android" ? WorldConfig.RegionMonitoring.android.capacity : 20
      #expect(score.peakRegions <= cap, "\(score.strategy) installed \(score.peakRegions)")
    }
    #expect(score(report, "whilehere").regionFailures == 0)
    #expect(score(report, "whilehere").visits > 20, "the trips must contain visits to judge")
  }

  /// The plot draws one point per strategy at its own figures.
  @Test func thePlotHasAPointPerStrategyAtItsRecall() throws {
    let report = try DetectionBenchmark.run(options())
    let svg = DetectionPlot.svg(report)
    for score in report.scores {
      #expect(svg.contains("<title>\(score.strategy): visits "), "\(score.strategy) missing")
    }
    let whilehere = score(report, "whilehere")
    let recall = String(format: "%.1f", Double(whilehere.visitsCaught) / Double(max(whilehere.visits, 1)) * 100)
    #expect(svg.contains("whilehere: visits \(recall) %"))
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
  }

  @Test func theEngineNeverSpendsMoreGPSThanItsAllowance() throws {
    let report = try DetectionBenchmark.run(options())
    let allowance = SessionConfig().allowance
    for name in ["seed", "whilehere", "whilehere-unconfirmed", "whilehere-android"] {
      let engine = score(report, name)
      // The phone counts the second a session is stopped in; nothing else may exceed the budget.
      let sessions = Double(engine.notes["session started", default: 0])
      #expect(engine.preciseSeconds <= Double(engine.trips) * allowance + sessions, "\(name) used \(engine.preciseSeconds) s over \(engine.trips) days")
    }
    let gps = score(report, "continuous-gps")
    #expect(score(report, "whilehere").preciseSeconds < gps.preciseSeconds / 2, "it must cost far less than tracking all the time")
  }

  /// `--engine FILE`: the shipped engine with the file's keys, beside it on
  /// the same days. An empty file is the shipped engine to the event; a
  /// smaller allowance is kept; an unknown key is named.
  @Test func anEngineFileRunsBesideTheShippedEngineOnTheSameDays() throws {
    let same = try SeedStrategy.candidate(Data("{}".utf8), source: "same.json")
    let smaller = try SeedStrategy.candidate(Data(#"{"session": {"allowance": 300}}"#.utf8), source: "small.json")
    #expect(same.name.hasPrefix(SeedStrategy.candidatePrefix) && same.name != smaller.name)
    var options = options()
    options.strategies = [SeedStrategy.shipped, same, smaller]
    let report = try DetectionBenchmark.run(options)
    let shipped = score(report, "whilehere"), copy = score(report, same.name), small = score(report, smaller.name)
    #expect(copy.visitsCaught == shipped.visitsCaught && copy.fires == shipped.fires && copy.preciseSeconds == shipped.preciseSeconds)
    #expect(copy.notes == shipped.notes)
    let sessions = Double(small.notes["session started", default: 0])
    #expect(small.preciseSeconds <= Double(small.trips) * 300 + sessions, "used \(small.preciseSeconds) s over \(small.trips) days")
    #expect(small.preciseSeconds < shipped.preciseSeconds)
    let error = #expect(throws: ScenarioError.self) { try SeedStrategy.candidate(Data(#"{"session": {"alowance": 1}}"#.utf8), source: "typo.json") }
    #expect(error?.description.hasPrefix("engine file typo.json: ") == true && error?.message.contains("unknown key 'session.alowance'") == true, "\(String(describing: error))")
  }

  /// The Android row runs on Android's tools: its geofencing, no visits,
  /// and balanced-power updates that come only when the phone moved.
  @Test func theAndroidRowRunsOnAndroidsTools() throws {
    let world = WorldConfig()
    let (phoneWorld, config, regions) = SeedStrategy.android.onPlatform(world)
    #expect(regions == WorldConfig.RegionMonitoring.android)
    #expect(config.coverage.osCapacity == 100)
    #expect(!config.follow.visits)
    #expect(phoneWorld.significantChange.maxInterval == .greatestFiniteMagnitude, "nothing arrives while the phone does not move")
    let report = try DetectionBenchmark.run(options())
    let android = score(report, "whilehere-android")
    #expect(android.notes["wakes: visit", default: 0] == 0)
    #expect(android.visitsCaught > 0)
    let ios = SeedStrategy.shipped.onPlatform(world)
    #expect(ios.regions == world.regionMonitoring && ios.world == world)
  }

  @Test func confirmedArrivalsKeepFalseAlarmsFarBelowTheRegionsOwnWord() throws {
    let report = try DetectionBenchmark.run(options())
    let confirmed = score(report, "whilehere")
    let plain = score(report, "os-nearest-20")
    #expect(plain.falseAlarms > 0, "the honest world's coarse positions must produce false entries to judge")
    #expect(Double(confirmed.falseAlarms) <= Double(max(confirmed.fires, 1)) * 0.05)
    #expect(Double(confirmed.falseAlarms) / Double(max(confirmed.fires, 1)) < Double(plain.falseAlarms) / Double(max(plain.fires, 1)) / 4)
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
    #expect(a.scores.allSatisfy { $0.trips == 3 })
  }
}
