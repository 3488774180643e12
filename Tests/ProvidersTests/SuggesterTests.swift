import Domain
import Foundation
import OSMPlaces
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
    // Each refusal names the file and what is wrong with it.
    for (text, reason) in [
      (#"["milk"]"#, "must be a JSON object"), (#"{"milk": "shop=supermarket"}"#, "'milk' must map to a list"),
      (#"{"milk": ["supermarket"]}"#, "'milk' must map to a list"), (#"{"milk": ["#, "not JSON"),
    ] {
      let bad = directory.write("bad.json", text)
      let error = #expect(throws: ProviderError.self) { try KeywordCategories.load(file: bad) }
      #expect(error?.reason.hasPrefix(bad + ": ") == true && error?.reason.contains(reason) == true, "\(String(describing: error))")
    }
  }
}

/// Everyday phrases the reviewers tried that found nothing or the wrong
/// thing, against the embedded central-Helsinki places from three points:
/// the first suggestion must be a kind of place that does the errand.
@Suite struct EverydaySuggestionTests {
  let suggester = Suggester(provider: try! GeoJSONPlaceProvider.load(path: nil))
  static let points = [(60.1699, 24.9384), (60.1655, 24.9480), (60.1730, 24.9420)]

  @Test(arguments: [
    ("go to the gym", ["leisure=fitness_centre", "leisure=sports_centre"]),
    ("buy batteries", ["shop=electronics", "shop=hardware", "amenity=recycling", "shop=supermarket"]),
    ("recycle bottles", ["amenity=recycling", "shop=supermarket"]),
    ("dry cleaning", ["shop=dry_cleaning", "shop=laundry"]),
    ("laundry", ["shop=laundry", "shop=dry_cleaning"]),
    ("fix bike", ["shop=bicycle"]),
    ("return library books", ["amenity=library"]),
    ("osta maitoa maito", ["shop=supermarket", "shop=convenience"]),
    ("köpa mjölk", ["shop=supermarket", "shop=convenience"]),
  ])
  func theFirstSuggestionDoesTheErrand(_ phrase: String, _ acceptable: [String]) throws {
    for (lat, lon) in Self.points {
      let found = try suggester.suggest(phrase, near: try Coordinate(latitude: lat, longitude: lon), radius: 2000, limit: 5)
      let first = try #require(found.first, "\(phrase) at \(lat),\(lon): nothing")
      #expect(acceptable.contains(first.place.category), "\(phrase) at \(lat),\(lon): \(found.map { "\($0.place.name) \($0.place.category)" })")
    }
  }

  @Test func aShortWordIsNotMatchedInsideAName() throws {
    let found = try suggester.suggest("gym", near: try Coordinate(latitude: 60.1671, longitude: 24.9383), radius: 2000, limit: 10)
    #expect(!found.contains { $0.place.category == "amenity=school" }, "\(found.map(\.place.name))")
  }
}
