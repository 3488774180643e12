#if canImport(Glibc)
  import Glibc
#endif
import Persistence

/// The first 8 bytes of each store file: a 5-byte kind, a zero byte and the
/// format version (u16 LE), so a foreign or future file is refused by name.
enum FileHeader {
  static let size = 8
  /// 2 added field updates and tags (Docs/Formats.md); 3 says a manifest
  /// names the store's files; 4 added a task's flags and a provider's
  /// opening hours. Older files read the same and are marked with this
  /// version before anything new is written to them.
  static let version: UInt16 = 4
  /// Files of this version or later belong to a store with a manifest.
  static let manifestVersion: UInt16 = 3
  static let oldestReadable: UInt16 = 1

  static func bytes(kind: String) -> [UInt8] {
    Array(kind.utf8) + [0, UInt8(version & 0xFF), UInt8(version >> 8)]
  }

  /// Starts like one of the store's own files (the version aside).
  static func isOwn(_ bytes: [UInt8]) -> Bool {
    bytes.count >= size && bytes[5] == 0 && ["WHLOG", "WHSNP"].contains { Array($0.utf8) == Array(bytes[0..<5]) }
  }

  static func version(of bytes: [UInt8]) -> UInt16 {
    bytes.count >= size ? UInt16(bytes[6]) | UInt16(bytes[7]) << 8 : version
  }

  /// Marks an older file with this version before records only this
  /// version reads are appended, so an older build refuses it by version
  /// instead of calling it damaged.
  static func upgrade(_ path: String) throws {
    let fd = try PosixFile.open(path, flags: O_WRONLY)
    defer { Glibc.close(fd) }
    let stamp = [UInt8(version & 0xFF), UInt8(version >> 8)]
    guard pwrite(fd, stamp, 2, 6) == 2 else { throw PosixFile.error(path, "upgrade the format version of") }
    try PosixFile.sync(fd, path: path)
  }

  static func check(_ bytes: UnsafeRawBufferPointer, kind: String, path: String) throws {
    let expected = Array(kind.utf8) + [0]
    guard bytes.count >= size, zip(expected, bytes).allSatisfy({ $0 == $1 }) else {
      throw StoreError.corrupt(path: path, offset: 0, reason: "not a WhileHere \(kind) file (bad header)")
    }
    let version = Int(bytes[6]) | Int(bytes[7]) << 8
    guard (Int(oldestReadable)...Int(Self.version)).contains(version) else {
      throw StoreError.unsupportedVersion(path: path, found: version)
    }
  }
}
