import Domain
import Foundation
import Providers
import Testing
import TestSupport

@Suite struct SuggesterTests {
  let provider = InMemoryPlaceProvider(places: PlaceProviderConformance.places)

  @Test func milkMeansSupermarketsNearestFirst() throws {
    let suggestions = try Suggester(provider: provider).suggest("Buy milk", near: PlaceProviderConformance.center)
    #expect(suggestions.map(\.place.name) == ["K-Market Asema", "S-Market Kaisaniemi"])
    #expect(suggestions.allSatisfy { $0.reason == "shop=supermarket" })
    #expect(abs(suggestions[0].distance - 100) < 1)
  }

  @Test func namesMatchToo() throws {
    let suggestions = try Suggester(provider: provider).suggest("cake at Ekberg", near: PlaceProviderConformance.center)
    #expect(suggestions.map(\.place.name) == ["Café Ekberg"])
    #expect(suggestions.first?.reason == "name")
  }

  @Test func farPlacesAreLeftOut() throws {
    let near = try Suggester(provider: provider).suggest("prescription", near: PlaceProviderConformance.center)
    #expect(near.isEmpty)
    let wide = try Suggester(provider: provider).suggest("prescription", near: PlaceProviderConformance.center, radius: 6000)
    #expect(wide.map(\.place.name) == ["Apteekki Pasila"])
  }

  @Test func aKeywordFileExtendsTheTable() throws {
    let directory = TemporaryDirectory()
    let path = directory.write("keywords.json", #"{"Oat": ["shop=supermarket"], "milk": ["amenity=cafe"]}"#)
    let table = try KeywordCategories.load(file: path)
    #expect(table.categories(for: "oats") == ["shop=supermarket"])
    #expect(table.categories(for: "milk") == ["amenity=cafe"])
    #expect(table.categories(for: "stamps") == ["amenity=post_office"])
    let bad = directory.write("bad.json", #"["milk"]"#)
    #expect(throws: ProviderError.self) { try KeywordCategories.load(file: bad) }
  }
}
