import Foundation

/// One strategy's totals over all trips, and the table row they make.
public struct DetectionScore: Sendable {
  public let strategy: String
  public var visits = 0
  public var visitsCaught = 0
  public var passBys = 0
  public var passBysCaught = 0
  public var delays: [Double] = []
  public var fires = 0
  public var falseAlarms = 0
  public var preciseSeconds = 0.0
  public var replans = 0
  public var peakRegions = 0
  public var regionFailures = 0
  public var trips = 0
  public var notes: [String: Int] = [:]
  /// Wall-clock seconds this strategy's runs took, and the trip seconds they simulated.
  public var wallSeconds = 0.0
  public var simulatedSeconds = 0.0

  public init(strategy: String) { self.strategy = strategy }

  /// A fire matches a place's stretch within radius + 50 m if it comes
  /// during it, up to `grace` seconds after (the OS delivers late), or up to
  /// `early` seconds before (the OS's coarse position fires small regions early).
  public static let grace = 300
  public static let early = 120

  mutating func add(_ run: StrategyRun, truth: GroundTruth) {
    trips += 1
    fires += run.fires.count
    preciseSeconds += run.preciseSeconds
    replans += run.replans
    peakRegions = max(peakRegions, run.peakRegions)
    regionFailures += run.regionFailures
    notes.merge(run.notes, uniquingKeysWith: +)
    for episode in truth.episodes {
      let first = run.fires.filter { $0.place == episode.place && $0.second >= episode.nearStart - Self.early && $0.second <= episode.nearEnd + Self.grace }
        .map(\.second).min()
      switch episode.kind {
      case .visit:
        visits += 1
        if first != nil { visitsCaught += 1 }
      case .passBy:
        passBys += 1
        if first != nil { passBysCaught += 1 }
      }
      if let first { delays.append(Double(max(0, first - episode.enter))) }
    }
    for fire in run.fires {
      let stretches = truth.nearStretches[fire.place] ?? []
      if !stretches.contains(where: { fire.second >= $0.start - Self.early && fire.second <= $0.end + Self.grace }) { falseAlarms += 1 }
    }
  }

  func percent(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 0 : 100 * Double(part) / Double(whole) }

  func percentile(_ p: Double) -> Double? {
    guard !delays.isEmpty else { return nil }
    let sorted = delays.sorted()
    return sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))]
  }

  public func row(world: WorldConfig) -> [String: Any] {
    let days = Double(max(trips, 1))
    let energyWh = preciseSeconds * world.power.gpsWatts * world.power.overhead / 3600
    return [
      "strategy": strategy,
      "visit_recall": percent(visitsCaught, visits), "visits": visits,
      "passby_recall": percent(passBysCaught, passBys), "passbys": passBys,
      "median_delay_s": percentile(0.5) ?? -1, "p95_delay_s": percentile(0.95) ?? -1,
      "false_alarm_pct": percent(falseAlarms, fires), "fires": fires,
      "precise_min_per_day": preciseSeconds / 60 / days,
      "battery_pct_per_day": energyWh / world.power.batteryWh * 100 / days,
      "replans_per_day": Double(replans) / days,
      "max_regions": peakRegions, "region_failures": regionFailures,
      "person_days_per_s": wallSeconds > 0 ? days / wallSeconds : 0,
    ]
  }
}
