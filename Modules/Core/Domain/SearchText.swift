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
      var result: [UInt8] = []
      result.reserveCapacity(bytes.count)
      var lastWasSpace = true
      for byte in bytes {
        guard byte < 0x80 else { return nil }
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          result.append(byte)
          lastWasSpace = false
        case UInt8(ascii: "A")...UInt8(ascii: "Z"):
          result.append(byte + 32)
          lastWasSpace = false
        default:
          if !lastWasSpace {
            result.append(UInt8(ascii: " "))
            lastWasSpace = true
          }
        }
      }
      if result.last == UInt8(ascii: " ") { result.removeLast() }
      return String(decoding: result, as: UTF8.self)
    }
  }

  /// Every word of the query appears somewhere in the haystack.
  public static func matches(query: String, in haystack: String) -> Bool {
    let words = fold(query).split(separator: " ")
    guard !words.isEmpty else { return true }
    let target = fold(haystack)
    return words.allSatisfy { target.contains($0) }
  }
}
