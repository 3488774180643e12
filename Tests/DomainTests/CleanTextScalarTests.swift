import Domain
import Testing

/// What the ten-minute FuzzICalendar run showed: a CR followed by a
/// combining mark is one Swift Character, so notes cleaned by characters
/// kept a lone CR (which no export can carry) and a control character so
/// joined could slip through. Notes are cleaned by Unicode scalars.
@Suite struct CleanTextScalarTests {
  @Test func aCarriageReturnBeforeACombiningMarkBecomesALineBreak() {
    #expect(CleanText.paragraph("GEO:EG\r\u{33E}EGIN") == "GEO:EG\n\u{33E}EGIN")
    #expect(CleanText.paragraph("one\r\ntwo\rthree") == "one\ntwo\nthree")
  }

  @Test func aControlCharacterBeforeACombiningMarkIsRemoved() {
    #expect(CleanText.paragraph("a\u{1B}\u{301}[2Jb") == "a\u{301}[2Jb")
    #expect(CleanText.line("a\u{1B}\u{301}[2Jb") == "a\u{301}[2Jb")
  }
}
