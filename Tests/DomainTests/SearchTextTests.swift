import Domain
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
}
