import Foundation

extension JSONDecoder {
  /// How deep outside JSON may nest before it is refused unread. Nothing the
  /// project reads nests deeper than a handful of levels.
  public static let nestingLimit = 64

  /// `decode(_:from:)` for bytes someone else wrote. Foundation's decoder on
  /// Linux crashes (it traps while describing where it gave up) when its own
  /// 512-level limit is reached at the end of the input — a request body of
  /// 512 `[` after a field name took whilehered down — so nesting is counted
  /// first, outside strings, and anything deeper than `nestingLimit` is a
  /// `DecodingError.dataCorrupted` like any other malformed text.
  public func decodeOutside<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    if let offset = Self.offsetPastNestingLimit(data) {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [], debugDescription: "nested deeper than \(Self.nestingLimit) levels at byte \(offset)"))
    }
    return try decode(type, from: data)
  }

  /// The byte where nesting first goes past the limit, or nil. Brackets in
  /// strings do not count; whether the text is valid JSON is the decoder's
  /// business: it fails on a malformed prefix before it could nest deeper
  /// than this count does.
  static func offsetPastNestingLimit(_ data: Data) -> Int? {
    data.withUnsafeBytes { raw in offsetPastNestingLimit(raw.bindMemory(to: UInt8.self)) }
  }

  // One pass over the bytes, before every decode of outside JSON (store
  // records and sync lines included), so it reads them in place.
  private static func offsetPastNestingLimit(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var depth = 0
    var inString = false
    var escaped = false
    for (offset, byte) in bytes.enumerated() {
      if inString {
        if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > nestingLimit { return offset }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return nil
  }
}
