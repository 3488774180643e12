import Domain
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
  }
}
