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

  static func read(_ path: String, columns: [String]) throws -> [[Double]] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Failure(path: path, line: 0, message: "cannot read the file")
    }
    var rows: [[Double]] = []
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
          rows.reserveCapacity(bytes.count / (columns.count * 11))
          continue
        }
        if lineEnd == start { continue }
        var row: [Double] = []
        row.reserveCapacity(columns.count)
        var fieldStart = start
        for position in start...lineEnd where position == lineEnd || bytes[position] == 0x2C {
          let length = position - fieldStart
          guard length > 0, length < field.count else {
            throw Failure(path: path, line: lineNumber, message: "field \(row.count + 1) is empty or too long")
          }
          for k in 0..<length { field[k] = CChar(bitPattern: bytes[fieldStart + k]) }
          field[length] = 0
          let value = field.withUnsafeMutableBufferPointer { buffer -> Double? in
            var stop: UnsafeMutablePointer<CChar>?
            let parsed = strtod(buffer.baseAddress!, &stop)
            return stop == buffer.baseAddress! + length && parsed.isFinite ? parsed : nil
          }
          guard let value else { throw Failure(path: path, line: lineNumber, message: "field \(row.count + 1) is not a number") }
          row.append(value)
          fieldStart = position + 1
        }
        guard row.count == columns.count else {
          throw Failure(path: path, line: lineNumber, message: "\(row.count) fields, expected \(columns.count)")
        }
        rows.append(row)
      }
    }
    return rows
  }
}
