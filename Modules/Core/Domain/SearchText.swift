import Foundation

/// Folds text the way people search: case, accents and punctuation ignored
/// ("Cafe" finds "Café", "kauppahalli" finds "Vanha Kauppahalli").
public enum SearchText {
  public static func fold(_ text: String) -> String {
    foldASCII(text) ?? foldUnicode(text)
  }

  /// `fold` for any text, through Foundation's folding.
  static func foldUnicode(_ text: String) -> String {
    let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
    var result = ""
    result.reserveCapacity(folded.utf8.count)
    var lastWasSpace = true
    for scalar in folded.unicodeScalars {
      if CharacterSet.alphanumerics.contains(scalar) {
        result.unicodeScalars.append(scalar)
        lastWasSpace = false
      } else if !lastWasSpace {
        result.append(" ")
        lastWasSpace = true
      }
    }
    if result.hasSuffix(" ") { result.removeLast() }
    return result
  }

  /// `fold` for text of ASCII alone, byte by byte: there folding is
  /// lowercasing, and letters and digits are what `alphanumerics` holds.
  /// Foundation's `folding` bridged every name through NSString: resolving
  /// a place by name among 100,000 folded each name up to three times.
  /// Nil for any other text.
  static func foldASCII(_ text: String) -> String? {
    var text = text
    return text.withUTF8 { bytes -> String? in
      var ascii = true
      // Written in place: a name short enough is held in the String itself,
      // with no buffer to allocate (100,000 names are folded per lookup).
      let folded = String(unsafeUninitializedCapacity: bytes.count) { result in
        var count = 0
        var lastWasSpace = true
        for byte in bytes {
          guard byte < 0x80 else {
            ascii = false
            return 0
          }
          switch byte {
          case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            result[count] = byte
            count += 1
            lastWasSpace = false
          case UInt8(ascii: "A")...UInt8(ascii: "Z"):
            result[count] = byte + 32
            count += 1
            lastWasSpace = false
          default:
            if !lastWasSpace {
              result[count] = UInt8(ascii: " ")
              count += 1
              lastWasSpace = true
            }
          }
        }
        if count > 0, result[count - 1] == UInt8(ascii: " ") { count -= 1 }
        return count
      }
      return ascii ? folded : nil
    }
  }

  /// Whether `fold` of the text whose UTF-8 is `bytes` starts with
  /// `prefix` (folded), byte for byte, decided as `foldASCII` folds and
  /// stopping at the first byte that differs; nil when the text is not
  /// ASCII as far as that (fold it whole then). A store scanning 100,000
  /// names for those a typed name starts makes no string of any other.
  public static func folded(_ bytes: UnsafeRawBufferPointer, startsWith prefix: String.UTF8View) -> Bool? {
    var wanted = prefix.makeIterator()
    guard var next = wanted.next() else { return true }
    // A run of other bytes folds to one space, and only between two kept ones.
    var spaceOwed = false
    var kept = false
    for byte in bytes {
      let folded: UInt8
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): folded = byte
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): folded = byte + 32
      case 0x80...: return nil
      default:
        spaceOwed = kept
        continue
      }
      if spaceOwed {
        guard next == UInt8(ascii: " ") else { return false }
        guard let following = wanted.next() else { return true }
        next = following
      }
      guard folded == next else { return false }
      guard let following = wanted.next() else { return true }
      (next, spaceOwed, kept) = (following, false, true)
    }
    return false
  }

  /// Every word of the query appears somewhere in the haystack.
  public static func matches(query: String, in haystack: String) -> Bool {
    let words = fold(query).split(separator: " ")
    guard !words.isEmpty else { return true }
    let target = fold(haystack)
    return words.allSatisfy { target.contains($0) }
  }
}
