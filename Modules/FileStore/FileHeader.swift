import Persistence

/// The first 8 bytes of each store file: a 5-byte kind, a zero byte and the
/// format version (u16 LE), so a foreign or future file is refused by name.
enum FileHeader {
  static let size = 8
  static let version: UInt16 = 1

  static func bytes(kind: String) -> [UInt8] {
    Array(kind.utf8) + [0, UInt8(version & 0xFF), UInt8(version >> 8)]
  }

  static func check(_ bytes: UnsafeRawBufferPointer, kind: String, path: String) throws {
    let expected = Array(kind.utf8) + [0]
    guard bytes.count >= size, zip(expected, bytes).allSatisfy({ $0 == $1 }) else {
      throw StoreError.corrupt(path: path, offset: 0, reason: "not a WhileHere \(kind) file (bad header)")
    }
    let version = Int(bytes[6]) | Int(bytes[7]) << 8
    guard version == Int(Self.version) else {
      throw StoreError.unsupportedVersion(path: path, found: version)
    }
  }
}
