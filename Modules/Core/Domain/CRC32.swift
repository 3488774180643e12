import CCRC32

/// CRC-32 (IEEE 802.3, reflected, as zlib computes it): folded with
/// carry-less multiplication where the processor has it (`wh_crc32_fold`),
/// the rest by tables sliced by 8, so checking a store's files costs
/// little next to reading them.
public enum CRC32 {
  static let tables: [[UInt32]] = {
    var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      tables[0][n] = c
    }
    for n in 0..<256 {
      for k in 1..<8 {
        let previous = tables[k - 1][n]
        tables[k][n] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
      }
    }
    return tables
  }()

  /// `continuing` is the checksum of the bytes before these (zlib's
  /// `crc32(crc, buf)`), so a growing file is checked without rereading it.
  public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
    checksum(bytes, continuing: previous, folding: true)
  }

  /// `folding` false: by tables alone (what the folding is tested against).
  static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32, folding: Bool) -> UInt32 {
    var crc: UInt32 = previous ^ 0xFFFF_FFFF
    let t = tables
    var index = 0
    let count = bytes.count
    if folding, let start = bytes.baseAddress { index = wh_crc32_fold(&crc, start, count) }
    t[0].withUnsafeBufferPointer { t0 in
      t[1].withUnsafeBufferPointer { t1 in
        t[2].withUnsafeBufferPointer { t2 in
          t[3].withUnsafeBufferPointer { t3 in
            t[4].withUnsafeBufferPointer { t4 in
              t[5].withUnsafeBufferPointer { t5 in
                t[6].withUnsafeBufferPointer { t6 in
                  t[7].withUnsafeBufferPointer { t7 in
                    while count - index >= 8 {
                      let lo = bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian ^ crc
                      let hi = bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self).littleEndian
                      crc = t7[Int(lo & 0xFF)] ^ t6[Int((lo >> 8) & 0xFF)]
                        ^ t5[Int((lo >> 16) & 0xFF)] ^ t4[Int(lo >> 24)]
                        ^ t3[Int(hi & 0xFF)] ^ t2[Int((hi >> 8) & 0xFF)]
                        ^ t1[Int((hi >> 16) & 0xFF)] ^ t0[Int(hi >> 24)]
                      index += 8
                    }
                    while index < count {
                      crc = t0[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                      index += 1
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    return crc ^ 0xFFFF_FFFF
  }

  public static func checksum(_ bytes: [UInt8], continuing previous: UInt32 = 0) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0, continuing: previous) }
  }
}
