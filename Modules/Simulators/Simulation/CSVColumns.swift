import Foundation

/// Reads a numeric CSV with a known header, fast: bytes are scanned once and
/// numbers parsed with `strtod`. Any bad line is reported with its number.
enum CSVColumns {
  struct Failure: Error, CustomStringConvertible {
    let path: String
    let line: Int
    let message: String
    var description: String { "\(path):\(line): \(message)" }
  }

  /// The rows' numbers in one flat array, row after row: a million rows
  /// as a million small arrays cost more to allocate than to parse.
  struct Table {
    let columns: Int
    var values: [Double] = []
    var count: Int { values.count / columns }
    subscript(row: Int, column: Int) -> Double { values[row * columns + column] }
  }

  /// Reads a number written as plain decimals (`-12.345`) from `start`,
  /// stopping at the first byte that cannot be part of one (or `end`):
  /// the value when it had digits and at most 15 significant ones, and
  /// where it stopped. Anything else (exponents, more digits) is strtod's.
  /// The digits make an integer below 2^53 and the scale a power of ten
  /// below 10^23, both exact doubles, so one division rounds correctly:
  /// the same double strtod gives, without copying the field.
  static func scanDecimal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (value: Double?, stop: Int) {
    var i = start
    let negative = i < end && bytes[i] == UInt8(ascii: "-")
    if i < end, negative || bytes[i] == UInt8(ascii: "+") { i += 1 }
    var mantissa: UInt64 = 0
    var digits = 0
    var decimals = 0
    var point = false
    var any = false
    while i < end {
      let byte = bytes[i]
      if byte == UInt8(ascii: "."), !point {
        point = true
      } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        any = true
        if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
        if digits > 15 { return (nil, i) }
        mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
        if point { decimals += 1 }
      } else {
        break
      }
      i += 1
    }
    guard any, decimals < powersOfTen.count else { return (nil, i) }
    let magnitude = Double(mantissa) / powersOfTen[decimals]
    return (negative ? -magnitude : magnitude, i)
  }

  static let powersOfTen: [Double] = (0...22).map { exponent in (0..<exponent).reduce(1.0) { value, _ in value * 10 } }

  static func read(_ path: String, columns: [String]) throws -> Table {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(path: path, line: 0, message: "cannot read the file")
    }
    var table = Table(columns: columns.count)
    try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      let bytes = raw.bindMemory(to: UInt8.self)
      var start = 0
      var lineNumber = 0
      var field = [CChar](repeating: 0, count: 64)
      while start < bytes.count {
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        lineNumber += 1
        var lineEnd = end
        if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        defer { start = end + 1 }
        if lineNumber == 1 {
          let header = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<lineEnd]), as: UTF8.self)
          guard header == columns.joined(separator: ",") else {
            throw Failure(path: path, line: 1, message: "header is '\(header)', expected '\(columns.joined(separator: ","))'")
          }
          table.values.reserveCapacity(bytes.count / 11)
          continue
        }
        if lineEnd == start { continue }
        var fields = 0
        var position = start
        while true {
          guard fields < columns.count else {
            throw Failure(path: path, line: lineNumber, message: "more than \(columns.count) fields")
          }
          var (value, fieldEnd) = Self.scanDecimal(bytes, from: position, to: lineEnd)
          if value == nil || (fieldEnd < lineEnd && bytes[fieldEnd] != 0x2C) {
            fieldEnd = position
            while fieldEnd < lineEnd && bytes[fieldEnd] != 0x2C { fieldEnd += 1 }
            let length = fieldEnd - position
            guard length > 0, length < field.count else {
              throw Failure(path: path, line: lineNumber, message: "field \(fields + 1) is empty or too long")
            }
            for k in 0..<length { field[k] = CChar(bitPattern: bytes[position + k]) }
            field[length] = 0
            value = field.withUnsafeMutableBufferPointer { buffer -> Double? in
              var stop: UnsafeMutablePointer<CChar>?
              let parsed = strtod(buffer.baseAddress!, &stop)
              return stop == buffer.baseAddress! + length && parsed.isFinite ? parsed : nil
            }
          }
          guard let value else { throw Failure(path: path, line: lineNumber, message: "field \(fields + 1) is not a number") }
          table.values.append(value)
          fields += 1
          if fieldEnd >= lineEnd { break }
          position = fieldEnd + 1
        }
        guard fields == columns.count else {
          throw Failure(path: path, line: lineNumber, message: "\(fields) fields, expected \(columns.count)")
        }
      }
    }
    return table
  }
}
