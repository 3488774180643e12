import Foundation

/// OpenStreetMap's `opening_hours`, in the forms most places use: `24/7`,
/// `closed`, and rules like `Mo-Fr 09:00-21:00; Sa 10:00-18:00; Su off`
/// (day lists and ranges, several time spans a day, spans past midnight,
/// `24:00`). A later rule replaces what an earlier one said of the days it
/// names. Anything else (months, weeks, holidays-only rules, sunrise,
/// comments) is not understood: `init` returns nil, and a place whose hours
/// are not understood counts as always open.
public struct OpeningHours: Hashable, Sendable {
  /// Open minutes of each weekday (0 Monday … 6 Sunday), as half-open
  /// [start, end) in minutes since midnight, end at most 1440.
  public let week: [[ClosedRange<Int>]]
  /// The text it was read from.
  public let text: String

  static let days = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

  public init?(_ text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    self.text = trimmed
    if trimmed == "24/7" {
      week = Array(repeating: [0...1439], count: 7)
      return
    }
    if trimmed.lowercased() == "closed" || trimmed.lowercased() == "off" {
      week = Array(repeating: [], count: 7)
      return
    }
    var week: [[ClosedRange<Int>]] = Array(repeating: [], count: 7)
    var said = false
    for rule in Self.rules(trimmed) {
      // Holiday rules ("PH off", "SH 10:00-14:00"): the days are not known here.
      if rule.hasPrefix("PH") || rule.hasPrefix("SH") { continue }
      guard let (days, spans) = Self.rule(rule) else { return nil }
      var spill: [(day: Int, span: ClosedRange<Int>)] = []
      for day in days {
        week[day] = []
        for span in spans {
          if span.upperBound > 1439 {
            week[day].append(span.lowerBound...1439)
            spill.append(((day + 1) % 7, 0...(span.upperBound - 1440)))
          } else {
            week[day].append(span)
          }
        }
      }
      for (day, span) in spill where span.upperBound >= span.lowerBound { week[day].append(span) }
      said = true
    }
    guard said else { return nil }
    self.week = week
  }

  /// Whether the place is open at `date` in `timeZone` (its local time).
  public func isOpen(at date: Date, in timeZone: TimeZone) -> Bool {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
    // Calendar weekdays run from 1 Sunday; ours from 0 Monday.
    let day = ((parts.weekday ?? 1) + 5) % 7
    let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    return week[day].contains { $0.contains(minute) }
  }

  /// The first moment after `date`, within a week, at which the place
  /// opens or closes (local time in `timeZone`); nil when it never does
  /// (always open, always closed).
  public func nextChange(after date: Date, in timeZone: TimeZone) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let midnight = calendar.startOfDay(for: date)
    let openNow = isOpen(at: date, in: timeZone)
    for offset in 0...7 {
      guard let day = calendar.date(byAdding: .day, value: offset, to: midnight) else { continue }
      let weekday = ((calendar.component(.weekday, from: day)) + 5) % 7
      let edges = week[weekday].flatMap { [$0.lowerBound, $0.upperBound + 1] }.sorted()
      for minute in edges {
        guard let moment = calendar.date(byAdding: .minute, value: minute, to: day), moment > date else { continue }
        // Spans that meet (23:00-24:00 then 00:00-02:00) are no change.
        if isOpen(at: moment, in: timeZone) != openNow { return moment }
      }
    }
    return nil
  }

  /// The rules of the text: split at `;`, and at `,` where a day list starts a new rule.
  static func rules(_ text: String) -> [String] {
    var rules: [String] = []
    for part in text.split(separator: ";") {
      var current = ""
      for piece in part.split(separator: ",", omittingEmptySubsequences: false) {
        let trimmed = piece.trimmingCharacters(in: .whitespaces)
        // "Mo,We 10:00-12:00" is one rule; "Mo 10:00-12:00, Sa,Su 12:00-14:00" two.
        let startsRule = days.contains { trimmed.hasPrefix($0) }
        let currentHasHours = current.contains(":") || current.hasSuffix("off") || current.hasSuffix("closed")
        if startsRule, currentHasHours {
          rules.append(current)
          current = trimmed
        } else {
          current += current.isEmpty ? trimmed : "," + trimmed
        }
      }
      if !current.isEmpty { rules.append(current) }
    }
    return rules.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// One rule: its days (every day when it names none) and open spans (none: closed).
  static func rule(_ rule: String) -> (days: [Int], spans: [ClosedRange<Int>])? {
    let words = rule.split(separator: " ", maxSplits: 1).map(String.init)
    guard let first = words.first else { return nil }
    let dayList: [Int]
    let rest: String
    if let parsed = Self.dayList(first) {
      dayList = parsed
      rest = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
    } else {
      dayList = Array(0..<7)
      rest = rule
    }
    if rest == "off" || rest == "closed" { return (dayList, []) }
    // Days alone ("Mo-Fr") say nothing of the hours.
    guard !rest.isEmpty else { return nil }
    var spans: [ClosedRange<Int>] = []
    for text in rest.split(separator: ",") {
      let ends = text.trimmingCharacters(in: .whitespaces).split(separator: "-")
      guard ends.count == 2, let start = minutes(ends[0]), let end = minutes(ends[1]), start < 1440 else { return nil }
      // "21:00-04:00" runs past midnight; "10:00-24:00" ends at midnight.
      let last = end > start ? end - 1 : end + 1440 - 1
      guard last >= start else { return nil }
      spans.append(start...last)
    }
    return (dayList, spans)
  }

  /// `Mo`, `Mo-Fr`, `Mo,We,Fr`, `Sa-Mo`: weekday numbers, or nil if it is not a day list.
  static func dayList(_ text: String) -> [Int]? {
    var result: [Int] = []
    for item in text.split(separator: ",") {
      let ends = item.split(separator: "-").map(String.init)
      guard (1...2).contains(ends.count), let from = days.firstIndex(of: ends[0]) else { return nil }
      guard ends.count == 2 else {
        result.append(from)
        continue
      }
      guard let to = days.firstIndex(of: ends[1]) else { return nil }
      var day = from
      while true {
        result.append(day)
        if day == to { break }
        day = (day + 1) % 7
      }
    }
    return result.isEmpty ? nil : result
  }

  /// `HH:MM` (hours 0–24) in minutes since midnight.
  static func minutes(_ text: Substring) -> Int? {
    let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":")
    guard parts.count == 2, parts[1].count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]),
      (0...24).contains(hours), (0...59).contains(minutes), hours < 24 || minutes == 0
    else { return nil }
    return hours * 60 + minutes
  }
}
