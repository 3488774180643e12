/// What text from people and imported files may hold. A title that carried
/// an escape sequence once cleared a person's terminal; a name with a line
/// break split a one-line listing. Cleaning happens where text enters
/// (tasks, places, lists, imported rows); `escaped` guards output of text
/// stored before.
public enum CleanText {
  public static let nameLimit = 200
  public static let noteLimit = 10_000

  /// One line: control and invisible formatting characters (terminal
  /// escapes, bidirectional overrides) removed, line breaks and tabs made
  /// spaces, runs of spaces collapsed, ends trimmed.
  public static func line(_ text: String) -> String {
    // Already one clean line (every store read cleans its names again).
    if isCleanASCIILine(text) { return text }
    var result = ""
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      if isBreak(scalar) || scalar.properties.isWhitespace {
        pendingSpace = !result.isEmpty
        continue
      }
      if isHidden(scalar) { continue }
      if pendingSpace {
        result.append(" ")
        pendingSpace = false
      }
      result.unicodeScalars.append(scalar)
    }
    return result
  }

  /// Printable ASCII with single spaces between words and none at the
  /// ends: what `line` would give back unchanged, told without asking any
  /// scalar's Unicode properties.
  static func isCleanASCIILine(_ text: String) -> Bool {
    var afterSpace = true
    for byte in text.utf8 {
      guard byte >= 0x20, byte <= 0x7E else { return false }
      let space = byte == 0x20
      if space, afterSpace { return false }
      afterSpace = space
    }
    return !afterSpace || text.isEmpty
  }

  /// Several lines (notes): line breaks kept (CR LF and a lone CR made LF),
  /// tabs kept, other control characters removed, each line's end trimmed.
  /// By Unicode scalars: a CR followed by a combining mark is one Swift
  /// Character, and looking for characters let it through (FuzzICalendar).
  public static func paragraph(_ text: String) -> String {
    var lines = [String.UnicodeScalarView()]
    var afterCR = false
    for scalar in text.unicodeScalars {
      if scalar == "\n", afterCR {
        afterCR = false
        continue
      }
      afterCR = scalar == "\r"
      if scalar == "\r" || scalar == "\n" {
        lines.append(String.UnicodeScalarView())
      } else if scalar == "\t" || !isHidden(scalar) {
        lines[lines.count - 1].append(scalar)
      }
    }
    let trimmed = lines.map { line -> String in
      var kept = line
      while let last = kept.last, last == " " || last == "\t" { kept.removeLast() }
      return String(kept)
    }
    return trimmed.joined(separator: "\n").trimmingTrailingNewlines()
  }

  /// A name cleaned to one line and checked against the limit.
  public static func name(_ text: String, field: String) throws(DomainError) -> String {
    let cleaned = line(text)
    guard cleaned.count <= nameLimit else {
      throw .invalidValue(
        field: field, value: String(cleaned.prefix(40)) + "…", allowed: "at most \(nameLimit) characters; this one has \(cleaned.count)")
    }
    return cleaned
  }

  public static func note(_ text: String) throws(DomainError) -> String {
    let cleaned = paragraph(text)
    guard cleaned.count <= noteLimit else {
      throw .invalidValue(field: "note", value: String(cleaned.prefix(40)) + "…", allowed: "at most \(noteLimit) characters; this one has \(cleaned.count)")
    }
    return cleaned
  }

  /// Whether the UTF-8 `bytes` are printable ASCII and characters from
  /// U+00A0 to U+05FF but the soft hyphen (Latin, Greek, Cyrillic letters
  /// and signs, none of which hides or moves text), which `escaped` gives
  /// back as it is: most names, and listing thousands of them spent a
  /// sixth of its time asking each scalar's category (a third when they
  /// were accented). Text held as bytes (a listing read in place) is asked
  /// here too, so both agree.
  public static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var at = 0
    while at < bytes.count {
      let byte = bytes[at]
      if byte >= 0x20 && byte <= 0x7E {
        at += 1
        continue
      }
      // Two bytes, U+0080...U+05FF; below U+00A0 the C1 controls, at U+00AD the soft hyphen.
      guard (0xC2...0xD7).contains(byte), at + 1 < bytes.count, bytes[at + 1] & 0xC0 == 0x80 else { return false }
      if byte == 0xC2, bytes[at + 1] < 0xA0 || bytes[at + 1] == 0xAD { return false }
      at += 2
    }
    return true
  }

  /// For a terminal: anything `line` would drop shown as `\u{…}`, so stored
  /// text from before cleaning (or from another replica) cannot act on it.
  public static func escaped(_ text: String) -> String {
    var contiguous = text
    if contiguous.withUTF8({ isPlain(UnsafeRawBufferPointer($0)) }) { return text }
    // Most text beyond ASCII (accented names) has nothing to show otherwise.
    if !text.unicodeScalars.contains(where: { isHidden($0) || isBreak($0) }) { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar == "\n" {
        result += "\\n"
      } else if scalar == "\t" {
        result += " "
      } else if isHidden(scalar) || isBreak(scalar) {
        result += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x0D, 0x09, 0x0B, 0x0C, 0x85, 0x2028, 0x2029: return true
    default: return false
    }
  }

  /// Controls (Cc) and the format characters (Cf) that reorder or hide
  /// text; the joiners emoji need (ZWJ, ZWNJ, variation selectors) stay.
  static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    // Below U+0600 the controls are C0, DEL and C1 and the one format
    // character is the soft hyphen: answered without asking the scalar's
    // category, which is slow (listing 10,000 tasks at accented places
    // spent a third of its time there).
    if scalar.value < 0x600 {
      return ((scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)) && !isBreak(scalar)) || scalar.value == 0xAD
    }
    switch scalar.properties.generalCategory {
    case .control: return !isBreak(scalar)
    case .format: return scalar != "\u{200D}" && scalar != "\u{200C}"
    default: return false
    }
  }
}

extension String {
  fileprivate func trimmingTrailingNewlines() -> String {
    var text = self
    while text.hasSuffix("\n") { text.removeLast() }
    while text.hasPrefix("\n") { text.removeFirst() }
    return text
  }
}
