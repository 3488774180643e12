@testable import Domain
import Testing

/// `CleanText.escaped`: what reaches a terminal from stored text. Printable
/// ASCII passes as it is (the quick path); anything that could move the
/// cursor, hide or reorder text is shown as an escape; letters and the
/// joiners emoji need stay.
@Suite struct CleanTextEscapedTests {
  @Test func printableTextPassesAsItIs() {
    #expect(CleanText.escaped("Buy milk @ K-Market #3 (~2 min)") == "Buy milk @ K-Market #3 (~2 min)")
    #expect(CleanText.escaped("Kahvila Säpä, café") == "Kahvila Säpä, café")
    #expect(CleanText.escaped("👩\u{200D}💻 work") == "👩\u{200D}💻 work")
  }

  @Test func whatCouldMoveOrHideTextIsShownEscaped() {
    #expect(CleanText.escaped("a\tb") == "a b")
    #expect(CleanText.escaped("one\ntwo") == "one\\ntwo")
    #expect(CleanText.escaped("\u{1B}[2Jgone") == "\\u{1b}[2Jgone")
    #expect(CleanText.escaped("milk\u{7F}") == "milk\\u{7f}")
    #expect(CleanText.escaped("abc\u{202E}fed") == "abc\\u{202e}fed")
    #expect(CleanText.escaped("line\u{2028}break") == "line\\u{2028}break")
    #expect(CleanText.escaped("Säpä\u{9B}31m, soft\u{AD}hyphen") == "Säpä\\u{9b}31m, soft\\u{ad}hyphen", "a C1 control and a soft hyphen beyond ASCII")
  }

  /// Text `isPlain` passes is text `escaped` gives back as it is: every
  /// scalar below U+0800 alone and between letters.
  @Test func plainTextIsWhatEscapingLeavesAlone() {
    for value in 0..<0x800 {
      guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
      for text in [String(scalar), "a" + String(scalar) + "b", "Ä" + String(scalar)] {
        var bytes = text
        let plain = bytes.withUTF8 { CleanText.isPlain(UnsafeRawBufferPointer($0)) }
        if plain { #expect(CleanText.escaped(text) == text, "U+\(String(value, radix: 16))") }
      }
    }
    #expect(["Kauppa Äitee", "Ελληνικά", "Москва", "Øresund"].allSatisfy { name in var name = name; return name.withUTF8 { CleanText.isPlain(UnsafeRawBufferPointer($0)) } })
    #expect(!["soft\u{AD}", "\u{9B}", "a\tb", "\u{200E}", "עברית\u{200F}"].contains { name in var name = name; return name.withUTF8 { CleanText.isPlain(UnsafeRawBufferPointer($0)) } })
  }

  /// Below U+0600 a scalar is answered without its category; the answer
  /// must be the category's, for every such scalar.
  @Test func hiddenIsWhatTheCategorySays() {
    for value in 0..<0x600 {
      guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
      let category: Bool
      switch scalar.properties.generalCategory {
      case .control: category = !CleanText.isBreak(scalar)
      case .format: category = scalar != "\u{200D}" && scalar != "\u{200C}"
      default: category = false
      }
      #expect(CleanText.isHidden(scalar) == category, "U+\(String(value, radix: 16))")
    }
  }
}
