import Foundation

enum Formatting {
  static func meters(_ value: Double) -> String {
    var bytes: [UInt8] = []
    appendMeters(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `meters(value)`'s UTF-8 to `out`, whole metres as digits.
  static func appendMeters(_ value: Double, to out: inout [UInt8]) {
    guard value < 1000 else { return out.append(contentsOf: String(format: "%.1f km", value / 1000).utf8) }
    appendInteger(Int(value.rounded()), to: &out)
    out.append(text: " m")
  }

  /// Appends `String(value)`'s UTF-8 to `out` without making the string.
  static func appendInteger(_ value: Int, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var rest = value.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = 20
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
        rest /= 10
      } while rest > 0
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// `1 place`, `2 places`.
  static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
    "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
  }

  static func coordinate(_ lat: Double, _ lon: Double) -> String {
    var bytes: [UInt8] = []
    appendCoordinate(lat, lon, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// C's formatting, the digits String(format:) gives, without Foundation's
  /// string machinery around it (a tenth of listing 10,000 tasks): for the
  /// coordinates `writeCoordinate` leaves to C.
  private static func formattedByC(_ lat: Double, _ lon: Double) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
      let written = withVaList([lat, lon]) { vsnprintf(buffer.baseAddress, 64, "%.6f,%.6f", $0) }
      guard written > 0, written < 64 else { return String(format: "%.6f,%.6f", lat, lon) }
      return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(written)), as: UTF8.self)
    }
  }

  /// Appends "lat,lon" with six decimals each (`%.6f`) as UTF-8 to `out`.
  static func appendCoordinate(_ lat: Double, _ lon: Double, to out: inout [UInt8]) {
    let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer -> Bool in
      guard let count = writeCoordinate(lat, lon, buffer) else { return false }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<count]))
      return true
    }
    if !written { out.append(contentsOf: formattedByC(lat, lon).utf8) }
  }

  /// Writes "lat,lon" with six decimals each into `buffer` (32 bytes) and
  /// returns its length, or nil where C must format them. Both into one
  /// buffer made into one string: a string per number and their joining
  /// were a sixth of `task list`.
  private static func writeCoordinate(_ lat: Double, _ lon: Double, _ buffer: UnsafeMutableBufferPointer<UInt8>) -> Int? {
    var count = 0
    guard writeSixDecimals(lat, buffer, &count) else { return nil }
    buffer[count] = UInt8(ascii: ",")
    count += 1
    guard writeSixDecimals(lon, buffer, &count) else { return nil }
    return count
  }

  /// Writes `value` as `%.6f` prints it (always six digits, unlike the
  /// shortest form of `Coordinate.description`) at `buffer[count...]`, by
  /// integers, and moves `count` past it (at most 12 bytes); false, having
  /// written nothing that counts, where that could differ (a value within
  /// a millionth of a rounding tie, or 1,000 and more), which C then
  /// formats. Passing doubles through C's varargs boxed and cast each one:
  /// a twentieth of listing 10,000 tasks.
  static func writeSixDecimals(_ value: Double, _ buffer: UnsafeMutableBufferPointer<UInt8>, _ count: inout Int) -> Bool {
    let magnitude = value.magnitude
    guard magnitude < 1000 else { return false }
    let scaled = magnitude * 1e6
    // Below 1e9 the product is within 6e-8 of the exact one (half a unit in
    // its last place), so away from a tie both round the same way.
    // Truncation is a conversion instruction where rounding called libm.
    let fraction = scaled - Double(Int64(scaled))
    guard abs(fraction - 0.5) > 1e-6 else { return false }
    // Exact: below 2^30 adding a half loses no bit that could carry past a
    // tie, and ties were refused above.
    let units = UInt64(scaled + 0.5)
    if value.sign == .minus {
      buffer[count] = UInt8(ascii: "-")
      count += 1
    }
    // Below 1e9 both parts fit 32 bits, whose division by a constant is a
    // multiplication; the fraction goes two digits a step.
    var whole = UInt32(units / 1_000_000)
    var digits = 1
    var power: UInt32 = 10
    while whole >= power {
      digits += 1
      power *= 10
    }
    for at in stride(from: count + digits - 1, through: count, by: -1) {
      buffer[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole % 10)
      whole /= 10
    }
    count += digits
    buffer[count] = UInt8(ascii: ".")
    var rest = UInt32(units % 1_000_000)
    for at in stride(from: count + 5, through: count + 1, by: -2) {
      let pair = rest % 100
      rest /= 100
      buffer[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
      buffer[at + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
    }
    count += 7
    return true
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
