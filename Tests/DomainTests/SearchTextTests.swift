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

  /// Comparing a text's bytes with a folded prefix as they are folded says
  /// what folding the text whole and comparing would: for every prefix of
  /// its folding, those prefixes changed in their last byte or grown by
  /// one, and texts of random ASCII; nil only where the text is not ASCII
  /// up to the answer.
  @Test func foldedBytesStartAsTheirFoldingDoes() {
    var random = SystemRandomNumberGenerator()
    var texts = ["", " ", "  a  ", "A-B_c", "\t\nX\r", "---", "Buy milk!", "K-Supermarket  Kaisaniemi", "p0000001", "Place 61277", "a b", "ab", "Ab-é", "é a", "Ääliö"]
    for _ in 0..<2000 {
      let length = Int.random(in: 0...16, using: &random)
      // Letters, digits and a few separators, so prefixes meet spaces often.
      let alphabet = Array("aZ9 -_.,!Xy".utf8)
      texts.append(String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &random)! }, as: UTF8.self))
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
          #expect(!text.utf8.allSatisfy { $0 < 0x80 }, "'\(text)' is ASCII, yet no answer for '\(prefix)'")
        }
      }
    }
  }
}
