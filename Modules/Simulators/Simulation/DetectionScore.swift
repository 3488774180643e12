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
  public var reducedSeconds = 0.0
  public var replans = 0
  public var peakRegions = 0
  public var regionFailures = 0
  public var trips = 0
  public var wakes = 0
  public var wakeSeconds = 0.0
  /// (person-day, task) pairs with a visit or pass-by, and those where one was caught.
  public var taskDays = 0
  public var taskDaysHit = 0
  public var notes: [String: Int] = [:]
  /// Fires and false alarms by what set them off, for rows that say
  /// (`StrategyRun.fireSources`), and of the false alarms those that came
  /// while the person sat still (`stillSeconds`).
  public var firesBySource: [String: (fires: Int, falseAlarms: Int, falseWhileStill: Int)] = [:]
  /// Wall-clock seconds this strategy's runs took, and the trip seconds they simulated.
  public var wallSeconds = 0.0
  public var simulatedSeconds = 0.0

  public init(strategy: String) { self.strategy = strategy }

  /// A fire counts for an inside interval of its task when it comes
  /// between this many seconds before the first second inside and the last
  /// second inside: a late fire is a miss.
  public static let early = 30
  /// A fire is a false alarm when the person was nowhere within radius
  /// + 50 m of any place of its task in this many seconds before it.
  public static let falseAlarmWindow = 300
  /// A person is still at a second when they stayed within `stillMetres`
  /// of where they are for this many seconds before it: the span in which a
  /// false alarm is the OS's position wandering, not the person moving.
  public static let stillSeconds = 600
  public static let stillMetres = 50.0

  /// Whether the person stayed put for `stillSeconds` up to `second`.
  static func isStill(_ trip: Trip, at second: Int) -> Bool {
    guard second >= stillSeconds, second < trip.positions.count else { return false }
    let here = trip.positions[second]
    return trip.positions[(second - stillSeconds)...second].allSatisfy { $0.distance(to: here) <= stillMetres }
  }

  /// `trip`, when given, splits each source's false alarms by whether the person sat still.
  public mutating func add(_ run: StrategyRun, truth: GroundTruth, taskOf: [Int], trip: Trip? = nil) {
    trips += 1
    fires += run.fires.count
    preciseSeconds += run.preciseSeconds
    reducedSeconds += run.reducedSeconds
    wakes += run.wakes
    wakeSeconds += run.wakeSeconds
    replans += run.replans
    peakRegions = max(peakRegions, run.peakRegions)
    regionFailures += run.regionFailures
    notes.merge(run.notes, uniquingKeysWith: +)
    var firesByTask: [Int: [Int]] = [:]
    for fire in run.fires { firesByTask[taskOf[fire.place], default: []].append(fire.second) }
    var tasksSeen: [Int: Bool] = [:]
    for episode in truth.episodes {
      let first = firesByTask[episode.task]?.filter { $0 >= episode.enter - Self.early && $0 <= episode.leave }.min()
      switch episode.kind {
      case .visit:
        visits += 1
        if first != nil { visitsCaught += 1 }
      case .passBy:
        passBys += 1
        if first != nil { passBysCaught += 1 }
      }
      if let first { delays.append(Double(first - episode.enter)) }
      tasksSeen[episode.task] = (tasksSeen[episode.task] ?? false) || first != nil
    }
    taskDays += tasksSeen.count
    taskDaysHit += tasksSeen.values.filter { $0 }.count
    if run.fireSources.count == run.fires.count {
      for (fire, source) in zip(run.fires, run.fireSources) {
        let wasNear = truth.wasNear(task: taskOf[fire.place], from: fire.second - Self.falseAlarmWindow, to: fire.second)
        let still = !wasNear && trip.map { Self.isStill($0, at: fire.second) } == true
        let seen = firesBySource[source] ?? (0, 0, 0)
        firesBySource[source] = (seen.fires + 1, seen.falseAlarms + (wasNear ? 0 : 1), seen.falseWhileStill + (still ? 1 : 0))
      }
    }
    for (task, seconds) in firesByTask {
      for second in seconds where !truth.wasNear(task: task, from: second - Self.falseAlarmWindow, to: second) { falseAlarms += 1 }
    }
  }

  /// `--explain`'s lines for a row that says what set off its fires.
  public func sourceLines() -> [String] {
    guard !firesBySource.isEmpty else { return [] }
    return ["fires of \(strategy) by what set them off (fires, false alarms, of those while the person sat still \(Self.stillSeconds / 60) min):"]
      + firesBySource.sorted { $0.value.fires > $1.value.fires }.map { source, count in
        String(
          format: "  %5d  %5d (%4.1f%%)  %5d  %@", count.fires, count.falseAlarms, percent(count.falseAlarms, count.fires), count.falseWhileStill, source)
      }
  }

  func percent(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 0 : 100 * Double(part) / Double(whole) }

  func percentile(_ p: Double) -> Double? {
    guard !delays.isEmpty else { return nil }
    let sorted = delays.sorted()
    return sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))]
  }

  public func row(world: WorldConfig) -> DetectionRow {
    let days = Double(max(trips, 1))
    let energyWh = world.power.energyWh(
      gpsSeconds: preciseSeconds, awakeSeconds: wakeSeconds, reducedSeconds: reducedSeconds, reducedWatts: world.reducedAccuracy.watts)
    return DetectionRow(
      strategy: strategy,
      visitRecall: percent(visitsCaught, visits), visits: visits,
      passByRecall: percent(passBysCaught, passBys), passBys: passBys,
      medianDelay: percentile(0.5), p95Delay: percentile(0.95),
      falseAlarmPercent: percent(falseAlarms, fires), fires: fires,
      taskDayRecall: percent(taskDaysHit, taskDays), taskDays: taskDays,
      wakesPerDay: Double(wakes) / days,
      preciseMinutesPerDay: preciseSeconds / 60 / days,
      reducedMinutesPerDay: reducedSeconds / 60 / days,
      batteryPercentPerDay: energyWh / world.power.batteryWh * 100 / days,
      replansPerDay: Double(replans) / days,
      maxRegions: peakRegions, regionFailures: regionFailures,
      personDaysPerSecond: wallSeconds > 0 ? days / wallSeconds : 0)
  }

}
