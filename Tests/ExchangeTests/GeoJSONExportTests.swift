import Domain
import Engine
import Exchange
import Foundation
import Persistence
import Testing
import TestSupport

@Suite struct GeoJSONExportTests {
  @Test func placesBecomePointsWithTheirLists() throws {
    let clock = ManualClock(Fixtures.epoch)
    let engine = Engine(context: EngineContext(store: InMemoryOperationStore(replica: Fixtures.replica("x"), clock: clock), clock: clock, ids: SequentialIDGenerator(prefix: "id")))
    let place = try engine.places.add(name: "Alepa", coordinate: try Coordinate(latitude: 60.1712, longitude: 24.9447), tags: ["shop"])
    let lists = engine.places.lists
    let list = try lists.create("Groceries")
    _ = try lists.add(place: place.id.rawValue, to: list.id.rawValue)
    let result = ExchangeService(context: engine.context).geoJSON()
    #expect(result.places == 1 && result.withoutCoordinate == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: result.data) as? [String: Any])
    #expect(object["type"] as? String == "FeatureCollection")
    let feature = try #require((object["features"] as? [[String: Any]])?.first)
    #expect((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [24.9447, 60.1712], "GeoJSON is longitude first")
    let properties = try #require(feature["properties"] as? [String: Any])
    #expect(properties["name"] as? String == "Alepa")
    #expect(properties["lists"] as? [String] == ["Groceries"])
    #expect(properties["tags"] as? [String] == ["shop"])
    #expect((object["lists"] as? [[String: Any]])?.first?["places"] as? [String] == [place.id.rawValue])
  }
}
