import Foundation

/// RFC 5545 DATE-TIME in UTC (`20261202T101500Z`), by arithmetic on the
/// proleptic Gregorian calendar. Not DateFormatter: the ten-minute
/// FuzzICalendar run found Foundation's `DateFormatter.date(from:)` leaking
/// on some inputs, and the format needs nothing it offers.
enum ICalendarStamp {
  static func string(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let inDay = seconds - days * 86_400
    let (year, month, day) = civil(days)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let paddedYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
    return paddedYear + two(month) + two(day) + "T" + two(inDay / 3600) + two(inDay / 60 % 60) + two(inDay % 60) + "Z"
  }

  /// The instant, or nil when `text` is not exactly `YYYYMMDDTHHMMSSZ` with a real date and time.
  static func date(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
      let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
      (1...12).contains(month), (1...daysIn(month, of: year)).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    let days = daysFromCivil(year, month, day)
    return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + min(second, 59)))
  }

  static func daysIn(_ month: Int, of year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a Gregorian date (H. Hinnant's algorithm).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The Gregorian date of a day count since 1970-01-01.
  static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
