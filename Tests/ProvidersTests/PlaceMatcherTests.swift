import Domain
import Foundation
import Importing
import OSMPlaces
import Providers
import Testing
import TestSupport

@Suite struct PlaceMatcherTests {
  let provider = InMemoryPlaceProvider(places: PlaceProviderConformance.places + [
    ProviderPlace(ref: "osm:node/9", name: "Alepa", coordinate: PlaceProviderConformance.center, category: "shop=convenience", address: nil),
    ProviderPlace(ref: "osm:node/10", name: "Alepa Kluuvi", coordinate: PlaceProviderConformance.center, category: "shop=convenience", address: nil),
    ProviderPlace(ref: "osm:node/11", name: "Helsingin tuomiokirkko", coordinate: PlaceProviderConformance.center, category: "amenity=place_of_worship", address: nil, otherNames: ["Helsinki Cathedral"]),
  ])

  @Test(arguments: [
    ("cafe EKBERG", "osm:node/2"), ("Alepa Kluuvi", "osm:node/10"), ("Helsinki Cathedral", "osm:node/11"),
    ("K-Market Asema", "osm:node/1"),
  ])
  func clearMatchesAreAccepted(_ title: String, _ ref: String) throws {
    let match = try PlaceMatcher(provider: provider).match(title)
    guard case .accepted(let place) = match.decision else {
      Issue.record("\(title): \(match.decision)")
      return
    }
    #expect(place.ref == ref)
  }

  @Test func anAmbiguousBranchIsLeftForThePerson() throws {
    // Two unnamed Alepa branches 2 km apart: "Alepa Forum" could be either. A question, not a guess.
    let other = ProviderPlace(
      ref: "osm:node/12", name: "Alepa", coordinate: try Coordinate(latitude: 60.19, longitude: 24.94), category: "shop=convenience", address: nil)
    let matcher = PlaceMatcher(provider: InMemoryPlaceProvider(places: provider.places + [other]))
    let match = try matcher.match("Alepa Forum")
    #expect(match.decision == .candidates)
    #expect(Set(match.candidates.prefix(2).map(\.place.ref)) == ["osm:node/9", "osm:node/12"])
  }

  @Test func aSingleBareBrandIsTakenForTheBranch() throws {
    // "Alko Forum" is the one "Alko" (the fixtures' own case): the branch word is just where it is.
    let match = try PlaceMatcher(provider: provider).match("Alepa Forum")
    #expect(match.decision == .accepted(provider.places.first { $0.ref == "osm:node/9" }!))
  }

  @Test func nothingAlikeIsUnresolvedNeverDropped() throws {
    let match = try PlaceMatcher(provider: provider).match("Temppeliaukio Church")
    #expect(match.decision == .unresolved && match.candidates.isEmpty)
  }
}
