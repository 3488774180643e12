import Foundation

/// A large numeric CSV with a known header (the matcher's places and fixes,
/// traces), read fast: the bytes once through `CSVScanner`, plain decimals
/// parsed in place and anything else by `strtod`. A bad line is named.
public struct CSVTable: Sendable {
  public struct Failure: Error, CustomStringConvertible {
    public let path: String
    public let line: Int
    public let message: String
    public var description: String { "\(path):\(line): \(message)" }

    public init(path: String, line: Int, message: String) {
      self.path = path
      self.line = line
      self.message = message
    }
  }

  public let columns: Int
  /// The rows' numbers in one flat array, row after row: a million rows
  /// as a million small arrays cost more to allocate than to parse.
  public private(set) var values: [Double] = []
  public var count: Int { values.count / columns }
  public subscript(row: Int, column: Int) -> Double { values[row * columns + column] }

  /// The file at `path`, whose first line must be `columns` joined by commas;
  /// empty lines are skipped.
  public static func read(_ path: String, columns: [String]) throws -> CSVTable {
    var table = CSVTable(columns: columns.count)
    try rows(path, columns: columns, reserve: { table.values.reserveCapacity($0 * columns.count) }) { row, _ in
      table.values.append(contentsOf: row)
    }
    return table
  }

  /// Each row of the file at `path` as it is read, with its line (the
  /// same rules as `read`), so a caller builds its own values without a
  /// table of every number first. `reserve` is told about how many rows
  /// to expect (from the file's size) before the first.
  public static func rows(
    _ path: String, columns: [String], reserve: (Int) -> Void = { _ in },
    _ each: (UnsafeBufferPointer<Double>, Int) throws -> Void
  ) throws {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(path: path, line: 0, message: "cannot read the file")
    }
    reserve(data.count / (11 * max(1, columns.count)))
    var header: [String]? = []
    var fields = 0
    var firstEmpty = false
    var problem: String?
    var field = [CChar](repeating: 0, count: 64)
    var row = [Double](repeating: 0, count: columns.count)
    do {
      try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
        try CSVScanner.scan(
          raw.bindMemory(to: UInt8.self),
          field: { bytes in
            if header != nil {
              header?.append(String(decoding: bytes, as: UTF8.self))
              return
            }
            fields += 1
            if fields == 1 { firstEmpty = bytes.isEmpty }
            // Checked at the record's end, with its line.
            guard problem == nil, fields <= columns.count else { return }
            guard let value = Self.number(bytes, scratch: &field) else {
              problem = bytes.isEmpty || bytes.count >= field.count ? "field \(fields) is empty or too long" : "field \(fields) is not a number"
              return
            }
            row[fields - 1] = value
          },
          endRecord: { line in
            defer { fields = 0 }
            if let names = header {
              guard names == columns else {
                throw Failure(path: path, line: 1, message: "header is '\(names.joined(separator: ","))', expected '\(columns.joined(separator: ","))'")
              }
              header = nil
              return
            }
            // An empty line is one empty field: skipped.
            if fields == 1, firstEmpty {
              problem = nil
              return
            }
            if fields > columns.count { throw Failure(path: path, line: line, message: "more than \(columns.count) fields") }
            if let problem { throw Failure(path: path, line: line, message: problem) }
            if fields != columns.count { throw Failure(path: path, line: line, message: "\(fields) fields, expected \(columns.count)") }
            try row.withUnsafeBufferPointer { try each($0, line) }
          })
      }
    } catch let open as CSVScanner.Unterminated {
      throw Failure(path: path, line: open.line, message: "a quoted field is never closed")
    }
  }

  init(columns: Int) { self.columns = columns }

  /// A field's number: plain decimals in place, anything else (exponents,
  /// more digits) by strtod on a copy; nil when it is none.
  static func number(_ bytes: UnsafeBufferPointer<UInt8>, scratch: inout [CChar]) -> Double? {
    let (value, stop) = scanDecimal(bytes, from: 0, to: bytes.count)
    if let value, stop == bytes.count { return value }
    guard !bytes.isEmpty, bytes.count < scratch.count else { return nil }
    for k in 0..<bytes.count { scratch[k] = CChar(bitPattern: bytes[k]) }
    scratch[bytes.count] = 0
    return scratch.withUnsafeMutableBufferPointer { buffer -> Double? in
      var end: UnsafeMutablePointer<CChar>?
      let parsed = strtod(buffer.baseAddress!, &end)
      return end == buffer.baseAddress! + bytes.count && parsed.isFinite ? parsed : nil
    }
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
    // Digits first: they are nearly every byte.
    while i < end {
      let digit = bytes[i] &- UInt8(ascii: "0")
      if digit < 10 {
        any = true
        if mantissa != 0 || digit != 0 {
          digits += 1
          if digits > 15 { return (nil, i) }
        }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        if point { decimals += 1 }
      } else if bytes[i] == UInt8(ascii: "."), !point {
        point = true
      } else {
        break
      }
      i += 1
    }
    guard any, let scale = Self.powerOfTen(decimals) else { return (nil, i) }
    let magnitude = Double(mantissa) / scale
    return (negative ? -magnitude : magnitude, i)
  }

  /// 10^exponent for 0…22 (every one an exact double), else nil. A
  /// switch, not the array: a static's lazy initialisation was checked at
  /// every number.
  @inline(__always)
  static func powerOfTen(_ exponent: Int) -> Double? {
    switch exponent {
    case 0: return 1e0
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    case 22: return 1e22
    default: return nil
    }
  }

}
