import Domain
/// The on-disk unit: `"WHR1" | length u32 LE | crc32 u32 LE | payload`.
/// One frame holds one acknowledged batch, so a batch survives a crash whole
/// or not at all.
enum Frame {
  static let magic: [UInt8] = Array("WHR1".utf8)
  static let headerSize = 12
  /// A frame longer than this is not something this store wrote.
  static let maxPayload = 1 << 30

  static func encode(_ payload: [UInt8]) -> [UInt8] {
    var bytes = magic
    bytes.reserveCapacity(headerSize + payload.count)
    appendLE(UInt32(payload.count), to: &bytes)
    appendLE(CRC32.checksum(payload), to: &bytes)
    bytes.append(contentsOf: payload)
    return bytes
  }

  static func appendLE(_ value: UInt32, to bytes: inout [UInt8]) {
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
  }

  static func readLE(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
    bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
  }
}
