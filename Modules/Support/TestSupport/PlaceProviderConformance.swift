import Domain
import Providers

/// The shared suite every `PlaceProvider` passes. `make` builds the provider
/// over exactly `PlaceProviderConformance.places` (a file, a replayed server…).
public enum PlaceProviderConformance {
  public static let center = try! Coordinate(latitude: 60.1699, longitude: 24.9384)

  /// Four places: two supermarkets at 100 m and 300 m, a café at 200 m
  /// with an accented name, and a pharmacy 5 km away.
  public static let places: [ProviderPlace] = [
    ProviderPlace(ref: "osm:node/1", name: "K-Market Asema", coordinate: offset(north: 100), category: "shop=supermarket", address: "Asemaaukio 1"),
    ProviderPlace(ref: "osm:node/2", name: "Café Ekberg", coordinate: offset(north: 200), category: "amenity=cafe", address: nil),
    ProviderPlace(ref: "osm:node/3", name: "S-Market Kaisaniemi", coordinate: offset(north: 300), category: "shop=supermarket", address: nil),
    ProviderPlace(ref: "osm:node/4", name: "Apteekki Pasila", coordinate: offset(north: 5000), category: "amenity=pharmacy", address: nil),
  ]

  static func offset(north meters: Double) -> Coordinate {
    try! Coordinate(latitude: center.latitude + meters / 111_195, longitude: center.longitude)
  }

  public static func verify(make: () throws -> any PlaceProvider) throws {
    let provider = try make()
    try expect(!provider.name.isEmpty, "name", "a provider needs a name")
    let near = try provider.nearby(center, radius: 1000, categories: [], limit: 10)
    try expect(near.map(\.ref) == ["osm:node/1", "osm:node/2", "osm:node/3"], "nearby", "nearest first within the radius, got \(near.map(\.ref))")
    let shops = try provider.nearby(center, radius: 1000, categories: ["shop=supermarket"], limit: 10)
    try expect(shops.map(\.ref) == ["osm:node/1", "osm:node/3"], "nearby by category", "got \(shops.map(\.ref))")
    let one = try provider.nearby(center, radius: 10_000, categories: [], limit: 1)
    try expect(one.map(\.ref) == ["osm:node/1"], "limit", "got \(one.map(\.ref))")
    let cafe = try provider.search("CAFE ekberg", near: nil, limit: 10)
    try expect(cafe.map(\.ref) == ["osm:node/2"], "search ignores accents and case", "got \(cafe.map(\.ref))")
    let markets = try provider.search("market", near: center, limit: 10)
    try expect(markets.map(\.ref) == ["osm:node/1", "osm:node/3"], "search near orders by distance", "got \(markets.map(\.ref))")
    try expect(try provider.search("nothing like it", near: nil, limit: 10).isEmpty, "search", "found something for nonsense")
    try expect(try provider.place(ref: "osm:node/3")?.name == "S-Market Kaisaniemi", "place(ref:)", "did not find a held place")
    try expect(try provider.place(ref: "osm:node/999") == nil, "place(ref:)", "found a place it does not hold")
  }
}
