/// A saved list's CSV as text records (`CSVScanner`'s rules: commas,
/// double quotes with `""` inside, newlines inside quoted fields, CRLF or
/// LF). Each record carries the line it starts on, so errors can name it.
enum CSVReader {
  struct Record {
    let line: Int
    let fields: [String]
  }

  static func records(_ text: String, file: String) throws -> [Record] {
    var records: [Record] = []
    var fields: [String] = []
    var bytes = Array(text.utf8)
    do {
      try bytes.withUnsafeMutableBufferPointer { buffer in
        try CSVScanner.scan(
          UnsafeBufferPointer(buffer), field: { fields.append(String(decoding: $0, as: UTF8.self)) },
          endRecord: { line in
            records.append(Record(line: line, fields: fields))
            fields = []
          })
      }
    } catch let open as CSVScanner.Unterminated {
      throw ImportError(file: file, line: open.line, message: "a quoted field is never closed")
    }
    return records
  }
}
