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
        var fieldStart = start
        for position in start...lineEnd where position == lineEnd || bytes[position] == 0x2C {
          let length = position - fieldStart
          guard length > 0, length < field.count, fields < columns.count else {
            throw Failure(
              path: path, line: lineNumber,
              message: fields < columns.count ? "field \(fields + 1) is empty or too long" : "more than \(columns.count) fields")
          }
          for k in 0..<length { field[k] = CChar(bitPattern: bytes[fieldStart + k]) }
          field[length] = 0
          let value = field.withUnsafeMutableBufferPointer { buffer -> Double? in
            var stop: UnsafeMutablePointer<CChar>?
            let parsed = strtod(buffer.baseAddress!, &stop)
            return stop == buffer.baseAddress! + length && parsed.isFinite ? parsed : nil
          }
          guard let value else { throw Failure(path: path, line: lineNumber, message: "field \(fields + 1) is not a number") }
          table.values.append(value)
          fields += 1
          fieldStart = position + 1
        }
        guard fields == columns.count else {
          throw Failure(path: path, line: lineNumber, message: "\(fields) fields, expected \(columns.count)")
        }
      }
    }
    return table
  }
}
