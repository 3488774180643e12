/// The one CSV tokenizer (RFC 4180 over UTF-8 bytes): fields split on
/// commas, records on LF (a CR outside quotes is dropped, so CRLF works), a
/// field that starts with a double quote runs to the closing one with `""`
/// for a quote and newlines kept. Saved lists read it as text
/// (`CSVReader`), large numeric files as numbers (`CSVTable`), with the same
/// rules and the same line numbers.
enum CSVScanner {
  /// A quoted field still open at the end of the input, in the record that starts on `line`.
  struct Unterminated: Error {
    let line: Int
  }

  /// Calls `field` with each field's bytes (valid only during the call) and
  /// `endRecord` with the line each record starts on, in order. An empty
  /// line is a record of one empty field.
  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, field: (UnsafeBufferPointer<UInt8>) throws -> Void, endRecord: (_ line: Int) throws -> Void
  ) throws {
    let count = bytes.count
    var line = 1
    var index = 0
    // Fields that are not a plain run of bytes (quoted, or with a CR inside) are copied here.
    var scratch: [UInt8] = []
    while index < count {
      let recordLine = line
      while true {
        if bytes[index] == quote {
          scratch.removeAll(keepingCapacity: true)
          index += 1
          var closed = false
          while index < count {
            let byte = bytes[index]
            if byte == quote {
              if index + 1 < count, bytes[index + 1] == quote {
                scratch.append(quote)
                index += 2
                continue
              }
              index += 1
              closed = true
              break
            }
            if byte == newline { line += 1 }
            scratch.append(byte)
            index += 1
          }
          guard closed else { throw Unterminated(line: recordLine) }
          // After the closing quote the field goes on as plain text up to the delimiter.
          while index < count, bytes[index] != comma, bytes[index] != newline {
            if bytes[index] != carriageReturn { scratch.append(bytes[index]) }
            index += 1
          }
          try scratch.withUnsafeBufferPointer(field)
        } else {
          let start = index
          var returns = 0
          while index < count, bytes[index] != comma, bytes[index] != newline {
            if bytes[index] == carriageReturn { returns += 1 }
            index += 1
          }
          if returns == 0 {
            try field(UnsafeBufferPointer(rebasing: bytes[start..<index]))
          } else if returns == 1, bytes[index - 1] == carriageReturn {
            try field(UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]))
          } else {
            scratch.removeAll(keepingCapacity: true)
            for byte in bytes[start..<index] where byte != carriageReturn { scratch.append(byte) }
            try scratch.withUnsafeBufferPointer(field)
          }
        }
        guard index < count, bytes[index] == comma else { break }
        index += 1
        // A comma that ends the input leaves one more, empty, field.
        if index == count {
          try field(UnsafeBufferPointer(rebasing: bytes[count..<count]))
          break
        }
      }
      try endRecord(recordLine)
      if index < count {
        // The newline that ended the record.
        index += 1
        line += 1
      }
    }
  }

  static let quote = UInt8(ascii: "\"")
  static let comma = UInt8(ascii: ",")
  static let newline = UInt8(ascii: "\n")
  static let carriageReturn = UInt8(ascii: "\r")
}
