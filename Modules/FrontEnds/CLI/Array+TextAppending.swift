/// Appending text's bytes to an output buffer without the generic
/// sequence path: `append(contentsOf: string.utf8)` on the pieces of
/// 30,000 lines was about a quarter of writing them (perf).
extension Array where Element == UInt8 {
  /// Appends a literal's UTF-8.
  mutating func append(text: StaticString) {
    append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends `text`'s UTF-8, copied from its storage at once.
  mutating func append(text: String) {
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
    if copied == nil { append(contentsOf: text.utf8) }
  }
}
