import Domain
import Testing

/// `CleanText.line` gives text that is already one clean line back as it
/// is without looking at each scalar; these check that the shortcut and the
/// full cleaning agree on every kind of short ASCII text, spaces, tabs and
/// control characters included.
@Suite struct CleanTextLineTests {
  /// What `line` promises for ASCII: controls dropped, breaks and tabs
  /// made spaces, runs of spaces collapsed, ends trimmed.
  static func expected(_ text: String) -> String {
    let spaced = text.unicodeScalars.compactMap { scalar -> Character? in
      switch scalar.value {
      case 0x09...0x0D, 0x20: return " "
      case 0x00...0x1F, 0x7F: return nil
      default: return Character(scalar)
      }
    }
    return String(spaced).split(separator: " ").joined(separator: " ")
  }

  @Test func everyShortASCIITextIsCleanedAsTheFullPassCleansIt() {
    let alphabet: [Character] = ["a", "Z", "~", " ", "\t", "\n", "\u{1B}", "\u{7F}", "0"]
    var generator = SplitMix64(seed: 7)
    for _ in 0..<20_000 {
      let length = Int(generator.next() % 9)
      let text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
      #expect(CleanText.line(text) == Self.expected(text), "\(text.debugDescription)")
    }
  }

  @Test func cleanTextComesBackAsItIs() {
    for text in ["", "Milk", "Buy oat milk", "S-market Sokos (Helsinki) #3", "a b c"] {
      #expect(CleanText.line(text) == text)
    }
    #expect(CleanText.line(" Milk") == "Milk")
    #expect(CleanText.line("Milk ") == "Milk")
    #expect(CleanText.line("Buy  milk") == "Buy milk")
  }
}
