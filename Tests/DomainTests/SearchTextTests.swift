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
}
