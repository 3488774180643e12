import Foundation
import Testing

@testable import Persistence

/// Varints read back what `BinaryWriter` wrote, on the one-byte path read
/// inline and on the longer one, and bytes that end inside one, run past
/// 64 bits or give a length longer than what is left are refused.
@Suite struct BinaryReaderTests {
  @Test func varintsReadBackAtEveryLength() throws {
    let values: [UInt64] = [0, 1, 126, 127, 128, 129, 255, 300, 16_383, 16_384, 1 << 35, UInt64(Int64.max), UInt64.max - 1, UInt64.max]
    var writer = BinaryWriter()
    for value in values { writer.varint(value) }
    writer.byte(7)
    let (read, last, atEnd) = try writer.bytes.withUnsafeBytes { raw in
      var reader = BinaryReader(raw)
      let read = try values.map { _ in try reader.varint() }
      return (read, try reader.byte(), reader.isAtEnd)
    }
    #expect(read == values && last == 7 && atEnd)
  }

  @Test func brokenVarintsAndLengthsAreRefused() {
    let refused: [[UInt8]] = [
      [],  // nothing
      [0x80],  // ends inside
      [0xFF, 0xFF],
      Array(repeating: 0xFF, count: 9) + [0x02],  // past 64 bits
      Array(repeating: 0x80, count: 11) + [0x00],
    ]
    for bytes in refused {
      #expect(throws: BinaryReader.Malformed.self, "\(bytes)") { try bytes.withUnsafeBytes { var reader = BinaryReader($0); _ = try reader.varint() } }
    }
    // A length of 3 with two bytes after it, on both paths.
    for bytes: [UInt8] in [[3, 0x41, 0x42], [0x83, 0x00, 0x41, 0x42]] {
      #expect(throws: BinaryReader.Malformed.self, "\(bytes)") { try bytes.withUnsafeBytes { var reader = BinaryReader($0); _ = try reader.text() } }
    }
  }
}
