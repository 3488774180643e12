import Foundation

/// Folds text the way people search: case, accents and punctuation ignored
/// ("Cafe" finds "Café", "kauppahalli" finds "Vanha Kauppahalli").
public enum SearchText {
  public static func fold(_ text: String) -> String {
    foldASCII(text) ?? foldLatin(text) ?? foldUnicode(text)
  }

  /// How `foldUnicode` folds each character of Latin-1 and Latin Extended-A
  /// and -B (U+00A0...U+024F) alone, as UTF-8: the letter's folding
  /// ("ä" → "a", "ß" → "ss", "Ø" → "ø"), empty for a sign that folds to a
  /// space ("×"), nil where it folds to more than one run. Asked of
  /// Foundation once, at first need, so it folds as Foundation does.
  static let latinFolds: [[UInt8]?] = (0xA0...0x24F).map { value in
    let folded = foldUnicode(String(Unicode.Scalar(UInt32(value))!))
    return folded.contains(" ") ? nil : Array(folded.utf8)
  }

  /// The folding of the scalar `value` when `latinFolds` has it (.none
  /// outside its range; .some(nil) where it folds to more than one run).
  @inline(__always) static func latinFold(_ value: UInt32) -> [UInt8]?? {
    (0xA0...0x24F).contains(value) ? .some(latinFolds[Int(value) - 0xA0]) : .none
  }

  /// `fold` for text of ASCII and the Latin letters of `latinFolds` (most
  /// names in Finnish, Swedish, German or French), folding each letter as
  /// Foundation folds it alone; nil for any other text. Foundation's
  /// folding bridged every name through NSString: resolving a place by an
  /// accented name among 100,000 folded each one there (0.29 s).
  static func foldLatin(_ text: String) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var lastWasSpace = true
    func separate() {
      if !lastWasSpace {
        bytes.append(UInt8(ascii: " "))
        lastWasSpace = true
      }
    }
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value < 0x80 {
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): bytes.append(byte)
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
        default:
          separate()
          continue
        }
        lastWasSpace = false
      } else {
        guard case .some(let known) = latinFold(value), let folded = known else { return nil }
        if folded.isEmpty {
          separate()
        } else {
          bytes.append(contentsOf: folded)
          lastWasSpace = false
        }
      }
    }
    if bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
    return String(decoding: bytes, as: UTF8.self)
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
  /// `prefix` (folded), byte for byte, decided as `foldLatin` folds and
  /// stopping at the first byte that differs; nil when the text holds, as
  /// far as that, something beyond ASCII and the Latin letters of
  /// `latinFolds` (fold it whole then). A store scanning 100,000 names
  /// for those a typed name starts makes no string of any other.
  public static func folded(_ bytes: UnsafeRawBufferPointer, startsWith prefix: String.UTF8View) -> Bool? {
    var wanted = prefix.makeIterator()
    guard var next = wanted.next() else { return true }
    // A run of other bytes folds to one space, and only between two kept ones.
    var spaceOwed = false
    var kept = false
    // ASCII names (most) are compared here, a byte at a time; the first byte
    // beyond ASCII hands the text to the Latin letters' comparison, from its start.
    for byte in bytes {
      let folded: UInt8
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): folded = byte
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): folded = byte + 32
      case 0x80...: return foldedBeyondASCII(bytes, startsWith: prefix)
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

  /// `folded(_:startsWith:)` for text with bytes beyond ASCII, from its start.
  static func foldedBeyondASCII(_ bytes: UnsafeRawBufferPointer, startsWith prefix: String.UTF8View) -> Bool? {
    var match = PrefixMatch(prefix)
    guard match.next != nil else { return true }
    // The first byte of a two-byte letter, while its second is awaited.
    var lead: UInt8 = 0
    for byte in bytes {
      if lead != 0 {
        // U+0080...U+027F, folded by the table where it has the letter.
        guard byte & 0xC0 == 0x80, case .some(let known) = latinFold(UInt32(lead & 0x1F) << 6 | UInt32(byte & 0x3F)), let folded = known
        else { return nil }
        lead = 0
        if folded.isEmpty { match.separate() }
        for byte in folded { if let answer = match.take(byte) { return answer } }
        continue
      }
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        if let answer = match.take(byte) { return answer }
      case UInt8(ascii: "A")...UInt8(ascii: "Z"):
        if let answer = match.take(byte + 32) { return answer }
      case 0xC2...0xC9: lead = byte
      case 0x80...: return nil
      default: match.separate()
      }
    }
    return lead != 0 ? nil : false
  }

  /// A folded prefix compared with a text's kept bytes one at a time.
  private struct PrefixMatch {
    var wanted: String.UTF8View.Iterator
    /// The prefix's next byte; nil once it is used up.
    var next: UInt8?
    /// A run of other bytes folds to one space, and only between two kept ones.
    var spaceOwed = false
    var kept = false

    init(_ prefix: String.UTF8View) {
      wanted = prefix.makeIterator()
      next = wanted.next()
    }

    @inline(__always) mutating func separate() { spaceOwed = kept }

    /// Compares one kept byte: true or false is the answer, nil goes on.
    @inline(__always) mutating func take(_ folded: UInt8) -> Bool? {
      if spaceOwed {
        guard next == UInt8(ascii: " ") else { return false }
        next = wanted.next()
        guard next != nil else { return true }
      }
      guard folded == next else { return false }
      next = wanted.next()
      guard next != nil else { return true }
      (spaceOwed, kept) = (false, true)
      return nil
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
