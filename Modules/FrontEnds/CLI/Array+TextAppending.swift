/// Appending text's bytes to an output buffer without the generic
/// sequence path: `append(contentsOf: string.utf8)` on the pieces of
/// 30,000 lines was about a quarter of writing them (perf).
extension Array where Element == UInt8 {
  /// Appends a literal's UTF-8: a few bytes one by one, inlined where the
  /// literal is, more at once. (Named apart from `append(string:)`: given
  /// both, Swift passes a literal as a String.)
  @inline(__always)
  mutating func append(text: StaticString) {
    let (start, count) = (text.utf8Start, text.utf8CodeUnitCount)
    guard count > 4 else {
      for at in 0..<count { append(start[at]) }
      return
    }
    append(contentsOf: UnsafeBufferPointer(start: start, count: count))
  }

  /// Appends `text`'s UTF-8, copied from its storage at once.
  mutating func append(string text: String) {
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
    if copied == nil { append(contentsOf: text.utf8) }
  }
}
