import Foundation

/// Appends the store's primitive encodings: LEB128 varints, length-prefixed
/// UTF-8, IEEE doubles little-endian, one-byte tags and flags.
struct BinaryWriter {
  var bytes: [UInt8] = []

  mutating func byte(_ value: UInt8) { bytes.append(value) }

  mutating func varint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(rest & 0x7F) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  mutating func int(_ value: Int) { varint(UInt64(value)) }

  mutating func double(_ value: Double) {
    let bits = value.bitPattern
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8((bits >> UInt64(shift)) & 0xFF)) }
  }

  // Seconds since 2001-01-01, what Date stores, so a round trip is exact.
  mutating func date(_ value: Date) { double(value.timeIntervalSinceReferenceDate) }

  mutating func string(_ value: String) {
    var copy = value
    copy.withUTF8 { utf8 in
      varint(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func optional<T>(_ value: T?, _ write: (inout BinaryWriter, T) -> Void) {
    if let value {
      byte(1)
      write(&self, value)
    } else {
      byte(0)
    }
  }

  mutating func array<T>(_ values: [T], _ write: (inout BinaryWriter, T) -> Void) {
    int(values.count)
    for value in values { write(&self, value) }
  }
}
