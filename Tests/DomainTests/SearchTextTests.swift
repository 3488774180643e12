@testable import Domain
import Testing

@Suite struct SearchTextTests {
  @Test(arguments: [
    ("Café", "cafe"), ("KAUPPAHALLI", "kauppahalli"), ("Stockmann, Aleksanterinkatu!", "stockmann aleksanterinkatu"),
    ("Ääliö Örö", "aalio oro"),
  ])
  func foldsCaseAccentsAndPunctuation(_ input: String, _ expected: String) {
    #expect(SearchText.fold(input) == expected)
  }

  @Test func everyQueryWordMustMatch() {
    #expect(SearchText.matches(query: "vanha halli", in: "Vanha Kauppahalli"))
    #expect(!SearchText.matches(query: "vanha tori", in: "Vanha Kauppahalli"))
  }

  /// ASCII text is folded byte by byte; it must fold as Foundation's
  /// folding does, for every ASCII character (controls, punctuation, runs
  /// of spaces, text that is all separators) and for text just past ASCII.
  @Test func asciiIsFoldedAsFoundationFoldsIt() {
    var random = SystemRandomNumberGenerator()
    var samples = ["", " ", "  a  ", "A-B_c", "\t\nX\r", "---", "Buy milk!", "K-Supermarket  Kaisaniemi", "p0000001", String(UnicodeScalar(127))]
    samples += (0..<128).map { String(UnicodeScalar(UInt8($0))) + "a" + String(UnicodeScalar(UInt8($0))) }
    for _ in 0..<3000 {
      let length = Int.random(in: 0...24, using: &random)
      samples.append(String((0..<length).map { _ in Character(UnicodeScalar(UInt8.random(in: 0...127, using: &random))) }))
    }
    for text in samples {
      #expect(SearchText.foldASCII(text) == SearchText.foldUnicode(text), "\(Array(text.utf8))")
    }
    #expect(SearchText.foldASCII("Café") == nil)
    #expect(SearchText.fold("Café au lait") == "cafe au lait")
  }

  /// Text of ASCII and the Latin characters U+00A0...U+024F folds as
  /// Foundation folds it: every such character alone and beside every other
  /// (before and after), and random texts of them with ASCII; text with
  /// anything else (a combining mark, Greek) is left to Foundation.
  @Test func latinIsFoldedAsFoundationFoldsIt() {
    let latin = (0xA0...0x24F).map { Character(Unicode.Scalar(UInt32($0))!) }
    var samples = latin.map { String($0) }
    let neighbours: [Character] = ["a", "Z", "1", " ", "-"] + latin
    for character in latin {
      for other in neighbours { samples += [String([character, other]), String([other, character])] }
    }
    var random = SystemRandomNumberGenerator()
    let alphabet = latin + Array("aZ9 -_.,!Xy")
    for _ in 0..<3000 {
      samples.append(String((0..<Int.random(in: 0...20, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
    }
    for text in samples {
      let latin = SearchText.foldLatin(text)
      if let latin { #expect(latin == SearchText.foldUnicode(text), "\(text.unicodeScalars.map(\.value))") }
    }
    #expect(samples.filter { SearchText.foldLatin($0) == nil }.count < samples.count / 50, "few fall to Foundation")
    #expect(SearchText.foldLatin("Kauppa Äitee") == "kauppa aitee" && SearchText.foldLatin("Straße") == "strasse")
    #expect(SearchText.foldLatin("a\u{0308}") == nil && SearchText.foldLatin("Αθήνα") == nil)
    #expect(SearchText.fold("Ka\u{0308}ytava\u{0308}") == "kaytava", "decomposed accents are folded by Foundation")
  }

  /// Comparing a text's bytes with a folded prefix as they are folded says
  /// what folding the text whole and comparing would: for every prefix of
  /// its folding, those prefixes changed in their last byte or grown by
  /// one, and texts of random ASCII and Latin letters; nil only where the
  /// text holds something beyond them.
  @Test func foldedBytesStartAsTheirFoldingDoes() {
    var random = SystemRandomNumberGenerator()
    var texts = ["", " ", "  a  ", "A-B_c", "\t\nX\r", "---", "Buy milk!", "K-Supermarket  Kaisaniemi", "p0000001", "Place 61277", "a b", "ab", "Ab-é", "é a", "Ääliö",
      "Straße ×2", "Øresund", "a\u{0308}b", "Αθήνα", "Kauppa Äitee 61277"]
    for _ in 0..<2000 {
      let length = Int.random(in: 0...16, using: &random)
      // Letters, digits, a few separators (so prefixes meet spaces often) and Latin letters beyond ASCII.
      let alphabet = Array("aZ9 -_.,!XyäÖßø×\u{00A0}ŉǄ")
      texts.append(String((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
    }
    for text in texts {
      let folding = SearchText.fold(text)
      var prefixes = (0...folding.utf8.count).map { String(decoding: Array(folding.utf8.prefix($0)), as: UTF8.self) }
      prefixes += prefixes.filter { !$0.isEmpty }.map { String($0.dropLast()) + "q" } + [folding + " ", folding + "a", "zz", " "]
      for prefix in prefixes {
        let answer = Array(text.utf8).withUnsafeBytes { SearchText.folded($0, startsWith: prefix.utf8) }
        let expected = folding.utf8.starts(with: prefix.utf8)
        if let answer {
          #expect(answer == expected, "'\(text)' starts '\(prefix)'")
        } else {
          #expect(SearchText.foldLatin(text) == nil, "'\(text)' is ASCII and Latin letters, yet no answer for '\(prefix)'")
        }
      }
    }
  }
}
