import Domain

/// One strategy's figures in `bench detection`: what the table prints, the
/// plot draws and `--json` writes.
public struct DetectionRow: Sendable, Equatable {
  public var strategy: String
  public var visitRecall: Double
  public var visits: Int
  public var passByRecall: Double
  public var passBys: Int
  /// Seconds; negative when a fire came up to 30 s before entering; nil when nothing was caught.
  public var medianDelay: Double?
  public var p95Delay: Double?
  public var falseAlarmPercent: Double
  public var fires: Int
  public var taskDayRecall: Double
  public var taskDays: Int
  public var wakesPerDay: Double
  public var preciseMinutesPerDay: Double
  public var reducedMinutesPerDay: Double
  public var batteryPercentPerDay: Double
  public var replansPerDay: Double
  public var maxRegions: Int
  public var regionFailures: Int
  public var personDaysPerSecond: Double

  /// The `--json` line's members (snake case, as scripts read them; a
  /// missing delay is null).
  public func json(world: WorldConfig) -> JSONValue {
    func number(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
    return .object([
      "strategy": .string(strategy),
      "visit_recall": .number(visitRecall), "visits": .number(Double(visits)),
      "passby_recall": .number(passByRecall), "passbys": .number(Double(passBys)),
      "median_delay_s": number(medianDelay), "p95_delay_s": number(p95Delay),
      "false_alarm_pct": .number(falseAlarmPercent), "fires": .number(Double(fires)),
      "task_day_recall": .number(taskDayRecall), "task_days": .number(Double(taskDays)),
      "wakes_per_day": .number(wakesPerDay),
      "precise_min_per_day": .number(preciseMinutesPerDay),
      "reduced_min_per_day": .number(reducedMinutesPerDay),
      "battery_pct_per_day": .number(batteryPercentPerDay),
      "replans_per_day": .number(replansPerDay),
      "max_regions": .number(Double(maxRegions)), "region_failures": .number(Double(regionFailures)),
      "person_days_per_s": .number(personDaysPerSecond),
      "world": .string(world.name), "world_hash": .string(world.hash),
    ])
  }
}
