/// FNV-1a, for short deterministic fingerprints (region ids, world hashes):
/// stable across platforms and runs, unlike Swift's seeded `Hasher`.
public enum FNV1a {
  public static func hash32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    for byte in bytes {
      hash ^= UInt32(byte)
      hash = hash &* 16_777_619
    }
    return hash
  }

  public static func hash64<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01B3
    }
    return hash
  }

  /// Lowercase hex, zero-padded to the width of the type.
  public static func hex<Value: FixedWidthInteger & UnsignedInteger>(_ value: Value) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, Value.bitWidth / 4 - digits.count)) + digits
  }
}
