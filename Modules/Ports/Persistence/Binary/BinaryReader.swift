import Foundation

/// Reads what `BinaryWriter` wrote, checking every bound: bad bytes give a
/// `Malformed` error naming the offset, never a crash or a huge allocation.
struct BinaryReader {
  struct Malformed: Error, CustomStringConvertible {
    let offset: Int
    let reason: String
    var description: String { "\(reason) at byte \(offset) of the record" }
  }

  let bytes: UnsafeRawBufferPointer
  private(set) var offset = 0

  init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  var isAtEnd: Bool { offset >= bytes.count }

  func fail(_ reason: String) -> Malformed { Malformed(offset: offset, reason: reason) }

  @inline(__always)
  mutating func byte() throws -> UInt8 {
    guard offset < bytes.count else { throw fail("unexpected end") }
    defer { offset += 1 }
    return bytes[offset]
  }

  @inline(__always)
  mutating func varint() throws -> UInt64 {
    // Most are lengths, flags and counts under 128: one byte, read inline.
    if offset < bytes.count, bytes[offset] < 0x80 {
      offset += 1
      return UInt64(bytes[offset - 1])
    }
    return try longVarint()
  }

  private mutating func longVarint() throws -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      guard shift < 64, shift < 63 || next <= 1 else { throw fail("varint too long") }
      result |= UInt64(next & 0x7F) << shift
      if next & 0x80 == 0 { return result }
      shift += 7
    }
  }

  /// A count or length, which can never exceed the bytes left.
  @inline(__always)
  mutating func count() throws -> Int {
    let value = try varint()
    guard value <= UInt64(bytes.count - offset) else { throw fail("length \(value) exceeds the record") }
    return Int(value)
  }

  mutating func double() throws -> Double {
    guard bytes.count - offset >= 8 else { throw fail("unexpected end") }
    let bits = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
    offset += 8
    return Double(bitPattern: bits)
  }

  mutating func finite() throws -> Double {
    let value = try double()
    guard value.isFinite else { throw fail("number is not finite") }
    return value
  }

  mutating func date() throws -> Date { Date(timeIntervalSinceReferenceDate: try finite()) }

  mutating func bool() throws -> Bool {
    switch try byte() {
    case 0: return false
    case 1: return true
    default: throw fail("flag is neither 0 nor 1")
    }
  }

  mutating func string() throws -> String {
    let length = try count()
    let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]).bindMemory(to: UInt8.self)
    // ASCII needs no validation; `String(validating:)` runs unspecialized
    // generic code, which was a tenth of opening a store whole.
    let text: String
    if Self.isASCII(slice) {
      text = String(decoding: slice, as: UTF8.self)
    } else {
      guard let valid = String(validating: slice, as: UTF8.self) else { throw fail("text is not valid UTF-8") }
      text = valid
    }
    offset += length
    return text
  }

  /// A string's UTF-8 where it lies, without making the string: checked
  /// as `string()` checks it, or not at all where it was checked before.
  mutating func text(checked: Bool = true) throws -> UnsafeRawBufferPointer {
    let length = try count()
    let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
    if checked {
      let typed = slice.bindMemory(to: UInt8.self)
      guard Self.isASCII(typed) || String(validating: typed, as: UTF8.self) != nil else { throw fail("text is not valid UTF-8") }
    }
    offset += length
    return slice
  }

  /// Whether every byte is below 0x80, eight at a time.
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(start)
    var at = 0
    var seen: UInt64 = 0
    while at + 8 <= bytes.count {
      seen |= raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)
      at += 8
    }
    while at < bytes.count {
      seen |= UInt64(bytes[at])
      at += 1
    }
    return seen & 0x8080_8080_8080_8080 == 0
  }

  mutating func optional<T>(_ read: (inout BinaryReader) throws -> T) throws -> T? {
    try bool() ? read(&self) : nil
  }

  mutating func array<T>(_ read: (inout BinaryReader) throws -> T) throws -> [T] {
    let count = try count()
    var values: [T] = []
    values.reserveCapacity(count)
    for _ in 0..<count { values.append(try read(&self)) }
    return values
  }
}
