import Foundation
import Testing

@testable import Domain

/// The checksum every store file carries must be zlib's, whichever way it
/// is computed: by folding with carry-less multiplication where the
/// processor can, by tables elsewhere and for what folding leaves over.
@Suite struct CRC32Tests {
  @Test func knownValuesAreZlibs() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    #expect(CRC32.checksum([]) == 0)
    #expect(CRC32.checksum([UInt8](repeating: 0, count: 4096)) == 0xC71C_0011)
    #expect(CRC32.checksum(Array(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 10).utf8)) == 0xE809_188B)
  }

  @Test func foldingAgreesWithTheTablesAtEveryLengthOffsetAndStart() {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes.withUnsafeBytes { all in
      // Every length around the 16- and 64-byte steps, from unaligned starts.
      for length in Array(0...300) + [1023, 1024, 1025, 4096, 65_537] {
        for offset in [0, 1, 7, 13] where offset + length <= all.count {
          let part = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)])
          for previous: UInt32 in [0, 0xDEAD_BEEF] {
            #expect(
              CRC32.checksum(part, continuing: previous, folding: true) == CRC32.checksum(part, continuing: previous, folding: false),
              "length \(length) offset \(offset) continuing \(previous)")
          }
        }
      }
    }
  }

  @Test func aChecksumContinuedPieceByPieceIsTheWholesChecksum() {
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    var running: UInt32 = 0
    for start in stride(from: 0, to: bytes.count, by: 977) {
      running = CRC32.checksum(Array(bytes[start..<min(start + 977, bytes.count)]), continuing: running)
    }
    #expect(running == CRC32.checksum(bytes))
  }
}
