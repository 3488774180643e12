import Domain
import Foundation
import Locking
import Providers
import Testing
import TestSupport

@Suite struct CachingPlaceProviderTests {
  final class Clock: Sendable {
    private let time = Locked(Date(timeIntervalSince1970: 1_780_000_000))
    var now: Date { time.withLock { $0 } }
    func advance(by seconds: TimeInterval) { time.withLock { $0 += seconds } }
  }

  func north(_ meters: Double) -> Coordinate {
    try! Coordinate(latitude: PlaceProviderConformance.center.latitude + meters / 111_195, longitude: PlaceProviderConformance.center.longitude)
  }

  @Test func passesTheSharedProviderSuite() throws {
    try PlaceProviderConformance.verify { CachingPlaceProvider(InMemoryPlaceProvider(places: PlaceProviderConformance.places)) }
  }

  @Test func smallMovesAreAnsweredFromMemoryWithTheCurrentRadiusAndOrder() throws {
    let clock = Clock()
    let cache = CachingPlaceProvider(InMemoryPlaceProvider(places: PlaceProviderConformance.places), reach: 1_000, lifetime: 300) { clock.now }
    let first = try cache.nearby(PlaceProviderConformance.center, radius: 1_000, categories: ["shop=supermarket"], limit: 10)
    #expect(first.map(\.ref) == ["osm:node/1", "osm:node/3"])
    #expect(cache.fetches == 1)
    // 250 m north: still inside what was fetched; the nearest is now node 3.
    let moved = try cache.nearby(north(250), radius: 100, categories: ["shop=supermarket"], limit: 10)
    #expect(moved.map(\.ref) == ["osm:node/3"])
    #expect(cache.fetches == 1)
    // Other categories, or too far, or too late: asked again.
    _ = try cache.nearby(PlaceProviderConformance.center, radius: 500, categories: ["amenity=cafe"], limit: 10)
    #expect(cache.fetches == 2)
    _ = try cache.nearby(north(5_000), radius: 500, categories: ["shop=supermarket"], limit: 10)
    #expect(cache.fetches == 3)
    clock.advance(by: 301)
    _ = try cache.nearby(PlaceProviderConformance.center, radius: 100, categories: ["shop=supermarket"], limit: 10)
    #expect(cache.fetches == 4)
  }
}
