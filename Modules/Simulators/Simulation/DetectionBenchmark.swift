import Domain
import Foundation

/// `whilehere-sim bench detection`: the same person-days, one run per
/// strategy, one row each. A day is a whole day (home, work, errands), so
/// one precise-tracking budget covers all of its trips and the hours at
/// home cost what they cost.
public struct DetectionBenchmark {
  public struct Options: Sendable {
    public var places = 10_000
    public var trips = 20
    public var seed: UInt64 = 1
    public var world = WorldConfig()
    public var roads: String?
    public var pois: String?
    public var strategies: [any DetectionStrategy] = DetectionBenchmark.allStrategies
    /// Also say why the engine rows missed what they missed (`--explain`).
    public var explain = false

    public init() {}
  }

  public static let allStrategies: [any DetectionStrategy] = [
    NearestRegionsStrategy.osNearest, NearestRegionsStrategy.bubble19, SeedStrategy.designCard, SeedStrategy.shipped,
    SeedStrategy.unconfirmed, SeedStrategy.android, ContinuousGPSStrategy(),
  ]

  /// Rows run only when named (`--strategies`): alternatives measured and
  /// not shipped (Docs/Benchmarks.md says why).
  public static let optionalStrategies: [any DetectionStrategy] = [
    SeedStrategy.conditionMonitor, SeedStrategy.regionsKept, SeedStrategy.mutedUnwatched, SeedStrategy.cellWake,
    OracleGPSStrategy(),
  ]

  public struct Report: Sendable {
    public let header: String
    public let scores: [DetectionScore]
    public let world: WorldConfig
    public let simulatedSeconds: Double
    public let wallSeconds: Double
    /// Per engine row, with `explain`: why its misses were missed.
    public var explanations: [(strategy: String, misses: MissExplanation)] = []
  }

  public static func run(_ options: Options) throws -> Report {
    let started = ContinuousClock.now
    var random = SimRandom(seed: options.seed)
    let graph = try options.roads.map { try StreetGraph.load(geojson: $0) }
      ?? StreetGraph.grid(center: try Coordinate(latitude: 60.1699, longitude: 24.9384))
    let pois = try options.pois.map { try PlaceSet.pointsOfInterest(geojson: $0) } ?? []
    var placeRandom = random.fork(100)
    let places = PlaceSet.make(count: options.places, localCount: options.world.localPlaces, pois: pois, graph: graph, random: &placeRandom)
    let generator = TripGenerator(graph: graph, places: places, people: options.world.people)
    var scores = options.strategies.map { DetectionScore(strategy: $0.name) }
    var explanations = options.strategies.map { _ in MissExplanation() }
    var simulated = 0.0
    // Midnight in Helsinki (UTC+3 in summer), 2026-05-28: days run from midnight to midnight.
    let day0 = Date(timeIntervalSince1970: 1_779_915_600)
    for index in 0..<options.trips {
      var tripRandom = random.fork(UInt64(1000 + index))
      let trip = generator.day(start: day0.addingTimeInterval(Double(index) * 86_400), random: &tripRandom)
      let truth = GroundTruth(trip: trip, places: places)
      let osRandom = tripRandom.fork(7)
      for (k, strategy) in options.strategies.enumerated() {
        let clock = ContinuousClock()
        var run = StrategyRun()
        var record = MissExplanation.Record()
        let elapsed = clock.measure {
          if options.explain, let engine = strategy as? any ObservableStrategy {
            run = engine.run(trip: trip, world: options.world, places: places, random: osRandom) { record.observe($0, $1) }
          } else {
            run = strategy.run(trip: trip, world: options.world, places: places, random: osRandom)
          }
        }
        if options.explain { explanations[k].add(record, truth: truth, trip: trip, places: places) }
        scores[k].add(run, truth: truth, taskOf: places.taskOf, trip: options.explain ? trip : nil)
        scores[k].wallSeconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        scores[k].simulatedSeconds += trip.duration
      }
      simulated += trip.duration
    }
    let header =
      "detection: \(options.places) places (\(places.places.filter(\.reachable).count) in the street area), \(options.trips) person-days, seed \(options.seed), "
      + "streets \(graph.source) (\(graph.nodes.count) nodes), world \(options.world.name) #\(options.world.hash)"
    let elapsed = ContinuousClock.now - started
    var report = Report(
      header: header, scores: scores, world: options.world, simulatedSeconds: simulated,
      wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    if options.explain {
      report.explanations = zip(options.strategies, explanations).filter { $0.0 is any ObservableStrategy }.map { ($0.0.name, $0.1) }
    }
    return report
  }
}
