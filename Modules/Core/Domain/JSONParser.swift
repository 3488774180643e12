import Foundation

/// A strict RFC 8259 parser into `JSONValue`, for messages that arrive by
/// the thousand (OwnTracks reports): one pass over the bytes, no thrown
/// errors on the happy path, a depth limit against nesting bombs, and
/// errors that give the byte offset.
public enum JSONParser {
  public struct Failure: Error, Equatable, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "\(reason) at byte \(offset)" }
  }

  public static func parse(_ data: Data, maxDepth: Int = 64) throws(Failure) -> JSONValue {
    let result: Result<JSONValue, Failure> = data.withUnsafeBytes { raw in
      var reader = Reader(bytes: raw.bindMemory(to: UInt8.self), maxDepth: maxDepth)
      do throws(Failure) {
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.index == reader.bytes.count else { throw reader.fail("unexpected text after the value") }
        return .success(value)
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0

    func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
      while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    mutating func value(depth: Int) throws(Failure) -> JSONValue {
      guard let byte = current else { throw fail("the JSON ends too early") }
      switch byte {
      case UInt8(ascii: "{"): return try object(depth: depth + 1)
      case UInt8(ascii: "["): return try array(depth: depth + 1)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): try literal("true"); return .bool(true)
      case UInt8(ascii: "f"): try literal("false"); return .bool(false)
      case UInt8(ascii: "n"): try literal("null"); return .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
      default: throw fail("unexpected character")
      }
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
      let count = word.utf8CodeUnitCount
      guard index + count <= bytes.count else { throw fail("the JSON ends too early") }
      for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { throw fail("unexpected character") }
      index += count
    }

    mutating func object(depth: Int) throws(Failure) -> JSONValue {
      guard depth <= maxDepth else { throw fail("nested deeper than \(maxDepth)") }
      index += 1
      var members: [String: JSONValue] = [:]
      skipWhitespace()
      if current == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { throw fail("expected a member name in quotes") }
        let key = try string()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw fail("expected ':' after a member name") }
        index += 1
        skipWhitespace()
        members[key] = try value(depth: depth)
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "}"):
          index += 1
          return .object(members)
        default: throw fail("expected ',' or '}' in an object")
        }
      }
    }

    mutating func array(depth: Int) throws(Failure) -> JSONValue {
      guard depth <= maxDepth else { throw fail("nested deeper than \(maxDepth)") }
      index += 1
      var items: [JSONValue] = []
      skipWhitespace()
      if current == UInt8(ascii: "]") {
        index += 1
        return .array(items)
      }
      while true {
        skipWhitespace()
        items.append(try value(depth: depth))
        skipWhitespace()
        switch current {
        case UInt8(ascii: ","): index += 1
        case UInt8(ascii: "]"):
          index += 1
          return .array(items)
        default: throw fail("expected ',' or ']' in an array")
        }
      }
    }

    mutating func number() throws(Failure) -> Double {
      let start = index
      if current == UInt8(ascii: "-") { index += 1 }
      guard let first = current, isDigit(first) else { throw fail("expected a digit") }
      if first == UInt8(ascii: "0") {
        index += 1
      } else {
        while let byte = current, isDigit(byte) { index += 1 }
      }
      if current == UInt8(ascii: ".") {
        index += 1
        guard let byte = current, isDigit(byte) else { throw fail("expected a digit after '.'") }
        while let byte = current, isDigit(byte) { index += 1 }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        index += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
        guard let byte = current, isDigit(byte) else { throw fail("expected a digit in the exponent") }
        while let byte = current, isDigit(byte) { index += 1 }
      }
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      guard let value = Double(text), value.isFinite else { throw Failure(offset: start, reason: "number out of range") }
      return value
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func string() throws(Failure) -> String {
      index += 1
      let start = index
      // Fast path: no escapes.
      while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { index += 1 }
      if current == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
        index += 1
        guard let text = String(validating: slice, as: UTF8.self) else { throw Failure(offset: start, reason: "a string is not valid UTF-8") }
        return text
      }
      var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
      while true {
        guard let byte = current else { throw fail("a string is not closed") }
        switch byte {
        case UInt8(ascii: "\""):
          index += 1
          guard let text = String(validating: buffer, as: UTF8.self) else { throw Failure(offset: start, reason: "a string is not valid UTF-8") }
          return text
        case UInt8(ascii: "\\"):
          index += 1
          guard let escaped = current else { throw fail("a string is not closed") }
          index += 1
          switch escaped {
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escaped)
          case UInt8(ascii: "b"): buffer.append(0x08)
          case UInt8(ascii: "f"): buffer.append(0x0C)
          case UInt8(ascii: "n"): buffer.append(0x0A)
          case UInt8(ascii: "r"): buffer.append(0x0D)
          case UInt8(ascii: "t"): buffer.append(0x09)
          case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
              guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail("a lone UTF-16 surrogate")
              }
              index += 2
              let low = try hex4()
              guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone UTF-16 surrogate") }
              scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
              throw fail("a lone UTF-16 surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw fail("an invalid \\u escape") }
            buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
          default: throw fail("an invalid escape")
          }
        case 0..<0x20:
          throw fail("a control character inside a string")
        default:
          buffer.append(byte)
          index += 1
        }
      }
    }

    mutating func hex4() throws(Failure) -> UInt32 {
      guard index + 4 <= bytes.count else { throw fail("the JSON ends too early") }
      var value: UInt32 = 0
      for _ in 0..<4 {
        let byte = bytes[index]
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw fail("an invalid \\u escape")
        }
        value = value << 4 | UInt32(digit)
        index += 1
      }
      return value
    }
  }
}
