import Domain
import Engine
import Foundation
import Providers
import Testing
import TestSupport

struct FailingProvider: PlaceProvider {
  let name = "failing"
  var count: Int? { nil }
  func nearby(_ point: Coordinate, radius: Double, categories: Set<String>, limit: Int) throws -> [ProviderPlace] { [] }
  func search(_ text: String, near: Coordinate?, limit: Int) throws -> [ProviderPlace] { [] }
  func place(ref: String) throws -> ProviderPlace? { throw ProviderError(provider: name, reason: "offline") }
}

@Suite struct RefreshServiceTests {
  func saved(_ h: EngineHarness) throws -> Place {
    let candidates = PlaceProviderConformance.places
    let ids = try SuggestionService(context: h.engine.context, suggester: Suggester(provider: InMemoryPlaceProvider(places: candidates)))
      .save([candidates[0]])
    _ = try h.engine.places.lists.create("Shops")
    _ = try h.engine.places.lists.add(place: ids[0].rawValue, to: "Shops")
    return try h.engine.places.tag(ids[0].rawValue, ["favourite"])
  }

  @Test func refreshRenewsProviderDataAndKeepsThePersonsPart() throws {
    let h = EngineHarness()
    let place = try saved(h)
    var moved = PlaceProviderConformance.places
    moved[0] = ProviderPlace(ref: moved[0].ref, name: "K-Market Asema (renovated)", coordinate: moved[1].coordinate, category: moved[0].category, address: "New 1")
    h.clock.advance(by: 40 * 86_400)
    #expect(h.store.state().places[place.id]?.provider?.isExpired(at: h.clock.now()) == true)
    let outcome = try RefreshService(context: h.engine.context, provider: InMemoryPlaceProvider(places: moved)).refresh(expiredOnly: true)
    #expect(outcome.refreshed == 1)
    let after = try #require(h.store.state().places[place.id])
    #expect(after.provider?.name == "K-Market Asema (renovated)" && after.provider?.address == "New 1")
    #expect(after.provider?.isExpired(at: h.clock.now()) == false)
    #expect(after.personal.tags == ["favourite"] && h.store.state().memberships.count == 1)
  }

  @Test func aFailingOrForgetfulProviderChangesNothing() throws {
    let h = EngineHarness()
    let place = try saved(h)
    let before = h.store.state().places[place.id]
    let failed = try RefreshService(context: h.engine.context, provider: FailingProvider()).refresh()
    #expect(failed.refreshed == 0 && failed.failed.count == 1)
    let gone = try RefreshService(context: h.engine.context, provider: InMemoryPlaceProvider(places: [])).refresh()
    #expect(gone.gone == [place.name])
    #expect(h.store.state().places[place.id] == before)
  }
}
