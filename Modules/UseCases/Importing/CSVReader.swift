/// RFC 4180 fields: commas, double quotes (`""` inside quotes), newlines
/// inside quoted fields, CRLF or LF. Each record carries the line it starts
/// on, so errors can name it.
enum CSVReader {
  struct Record {
    let line: Int
    let fields: [String]
  }

  static func records(_ text: String, file: String) throws -> [Record] {
    var records: [Record] = []
    var fields: [String] = []
    var field = ""
    var inQuotes = false
    var line = 1
    var recordLine = 1
    var iterator = Array(text.unicodeScalars).makeIterator()
    var pending: Unicode.Scalar? = nil
    func nextScalar() -> Unicode.Scalar? {
      if let p = pending {
        pending = nil
        return p
      }
      return iterator.next()
    }
    var atRecordStart = true
    while let scalar = nextScalar() {
      if atRecordStart {
        recordLine = line
        atRecordStart = false
      }
      if inQuotes {
        if scalar == "\"" {
          if let next = nextScalar() {
            if next == "\"" { field.unicodeScalars.append("\"") } else {
              inQuotes = false
              pending = next
            }
          } else {
            inQuotes = false
          }
        } else {
          if scalar == "\n" { line += 1 }
          field.unicodeScalars.append(scalar)
        }
        continue
      }
      switch scalar {
      case "\"" where field.isEmpty: inQuotes = true
      case ",":
        fields.append(field)
        field = ""
      case "\r": continue
      case "\n":
        fields.append(field)
        records.append(Record(line: recordLine, fields: fields))
        fields = []
        field = ""
        line += 1
        atRecordStart = true
      default: field.unicodeScalars.append(scalar)
      }
    }
    if inQuotes { throw ImportError(file: file, line: recordLine, message: "a quoted field is never closed") }
    if !field.isEmpty || !fields.isEmpty {
      fields.append(field)
      records.append(Record(line: recordLine, fields: fields))
    }
    return records
  }
}
