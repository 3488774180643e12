import Foundation

enum Formatting {
  static func meters(_ value: Double) -> String {
    value >= 1000 ? String(format: "%.1f km", value / 1000) : "\(Int(value.rounded())) m"
  }

  /// `1 place`, `2 places`.
  static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
    "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
  }

  static func coordinate(_ lat: Double, _ lon: Double) -> String {
    if let lat = fixedSixDecimals(lat), let lon = fixedSixDecimals(lon) { return lat + "," + lon }
    // C's formatting, the digits String(format:) gives, without Foundation's
    // string machinery around it (a tenth of listing 10,000 tasks).
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
      let written = withVaList([lat, lon]) { vsnprintf(buffer.baseAddress, 64, "%.6f,%.6f", $0) }
      guard written > 0, written < 64 else { return String(format: "%.6f,%.6f", lat, lon) }
      return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(written)), as: UTF8.self)
    }
  }

  /// `value` as `%.6f` prints it (always six digits, unlike the shortest
  /// form of `Coordinate.description`), by integers; nil where that could
  /// differ (a value within a millionth of a rounding tie, or 1,000 and
  /// more), which C then formats. Passing doubles through C's varargs
  /// boxed and cast each one: a twentieth of listing 10,000 tasks.
  static func fixedSixDecimals(_ value: Double) -> String? {
    let magnitude = value.magnitude
    guard magnitude < 1000 else { return nil }
    let scaled = magnitude * 1e6
    // Below 1e9 the product is within 6e-8 of the exact one (half a unit in
    // its last place), so away from a tie both round the same way.
    let fraction = scaled - scaled.rounded(.down)
    guard abs(fraction - 0.5) > 1e-6 else { return nil }
    let units = UInt64(scaled.rounded(.toNearestOrAwayFromZero))
    var fractionDigits = String(units % 1_000_000)
    fractionDigits = String(repeating: "0", count: 6 - fractionDigits.count) + fractionDigits
    return (value.sign == .minus ? "-" : "") + String(units / 1_000_000) + "." + fractionDigits
  }

  /// Local time with its offset: `2026-12-01 14:30 +02:00`.
  static func time(_ date: Date, in zone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    let offset = zone.secondsFromGMT(for: date)
    let sign = offset < 0 ? "-" : "+"
    let hours = abs(offset) / 3600
    let minutes = abs(offset) % 3600 / 60
    return String(format: "%04d-%02d-%02d %02d:%02d %@%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, sign, hours, minutes)
  }
}
