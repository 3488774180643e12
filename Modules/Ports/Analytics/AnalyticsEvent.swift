import Foundation

/// One usage event. It can hold only counts, durations, values of the
/// closed enums below and version numbers: there is no way to build one
/// with a coordinate, a name, an id or free text.
public struct AnalyticsEvent: Sendable, Equatable, Encodable {
  public enum Name: String, Sendable, Encodable {
    case launched, commandRun, planMade, reminderFired, sessionEnded, answered, syncFinished, crashed
  }

  public enum Field: String, Sendable, Encodable, CodingKey {
    case program, version, command, seconds, succeeded, regions, leftOut, outcome, reason, answer, channel, sent, received, applied, signal
  }

  public let name: Name
  public let fields: [Field: AnalyticsValue]

  init(_ name: Name, _ fields: [Field: AnalyticsValue]) {
    self.name = name
    self.fields = fields
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Field.self)
    for (field, value) in fields { try container.encode(value, forKey: field) }
    var named = encoder.container(keyedBy: EventKey.self)
    try named.encode(name, forKey: .event)
  }

  enum EventKey: String, CodingKey { case event }

  public static func launched(_ program: Program, version: Version) -> Self {
    Self(.launched, [.program: .choice(program.rawValue), .version: .version(version.text)])
  }

  public static func commandRun(_ command: Command, seconds: Double, succeeded: Bool) -> Self {
    Self(.commandRun, [.command: .choice(command.rawValue), .seconds: .duration(seconds), .succeeded: .choice(succeeded ? "yes" : "no")])
  }

  public static func planMade(regions: Int, leftOut: Int) -> Self {
    Self(.planMade, [.regions: .count(regions), .leftOut: .count(leftOut)])
  }

  public static func reminderFired(_ outcome: ReminderOutcome) -> Self {
    Self(.reminderFired, [.outcome: .choice(outcome.rawValue)])
  }

  public static func sessionEnded(_ reason: SessionEnd, seconds: Double) -> Self {
    Self(.sessionEnded, [.reason: .choice(reason.rawValue), .seconds: .duration(seconds)])
  }

  public static func answered(_ answer: Answer, via channel: Channel) -> Self {
    Self(.answered, [.answer: .choice(answer.rawValue), .channel: .choice(channel.rawValue)])
  }

  public static func syncFinished(sent: Int, received: Int, applied: Int, seconds: Double) -> Self {
    Self(.syncFinished, [.sent: .count(sent), .received: .count(received), .applied: .count(applied), .seconds: .duration(seconds)])
  }

  public static func crashed(_ program: Program, signal: Int32, version: Version) -> Self {
    Self(.crashed, [.program: .choice(program.rawValue), .signal: .count(Int(signal)), .version: .version(version.text)])
  }
}

/// The only kinds of value an event can carry.
public enum AnalyticsValue: Sendable, Equatable, Encodable {
  case count(Int)
  /// Seconds, rounded to tenths so timings cannot fingerprint.
  case duration(Double)
  /// A value of one of this module's closed enums.
  case choice(String)
  case version(String)

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .count(let value): try container.encode(value)
    case .duration(let value): try container.encode((value * 10).rounded() / 10)
    case .choice(let value), .version(let value): try container.encode(value)
    }
  }
}

public enum Program: String, Sendable { case cli, daemon, simulator }
public enum ReminderOutcome: String, Sendable { case delivered, suppressed, failed }
public enum Answer: String, Sendable { case done, later }
public enum Channel: String, Sendable { case link, desktop, cli, api }

/// Why a precise session ended (mirrors the engine's reasons).
public enum SessionEnd: String, Sendable {
  case settled, leftZone, noFix, stationary, timeLimit, noProgress, budget, permission, criticalHeat, shutdown, other
}

/// The CLI's top-level commands.
public enum Command: String, Sendable, CaseIterable {
  case task, place, list, search, suggest, `import`, check, doctor, store, user, sync, backup, export, forget, analytics, version, other

  public init(_ name: String?) { self = name.flatMap(Command.init(rawValue:)) ?? .other }
}

/// `1.2.3`: digits and dots only, so a version cannot smuggle text.
public struct Version: Sendable, Equatable {
  public let text: String

  public init(_ text: String) {
    let clean = text.prefix(20).allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && !text.isEmpty && text.count <= 20
    self.text = clean ? text : "0"
  }
}
