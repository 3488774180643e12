import Domain
import Foundation
import Importing
import OSMPlaces
import Providers
import Testing
import TestSupport

@Suite struct PlaceProviderTests {
  @Test func theInMemoryProviderPassesTheKit() throws {
    try PlaceProviderConformance.verify { InMemoryPlaceProvider(places: PlaceProviderConformance.places) }
  }

  @Test func theGeoJSONProviderPassesTheKit() throws {
    let directory = TemporaryDirectory()
    let features = PlaceProviderConformance.places.map { place -> String in
      let id = place.ref.replacingOccurrences(of: "osm:", with: "")
      return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(place.coordinate.longitude),\#(place.coordinate.latitude)]},"properties":{"id":"\#(id)","name":"\#(place.name)","category":"\#(place.category)"}}"#
    }
    let path = directory.write("places.geojson", #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#)
    try PlaceProviderConformance.verify { try GeoJSONPlaceProvider.load(path: path) }
  }

  @Test func theEmbeddedPlacesAreCentralHelsinki() throws {
    let provider = try GeoJSONPlaceProvider.load(path: nil)
    #expect((provider.count ?? 0) > 1000)
    let post = try provider.search("Pääposti", near: nil, limit: 1)
    #expect(post.first?.category == "amenity=post_office")
  }

  @Test(arguments: [
    ("not json at all", "not JSON"),
    (#"[1,2]"#, "not a GeoJSON FeatureCollection"),
    (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9,95]},"properties":{"name":"Bad"}}]}"#, "feature 0: coordinates must be [longitude, latitude] within range"),
  ])
  func badFilesAreNamed(_ contents: String, _ message: String) {
    let directory = TemporaryDirectory()
    let path = directory.write("bad.geojson", contents)
    let error = #expect(throws: ProviderError.self) { try GeoJSONPlaceProvider.load(path: path) }
    #expect(error?.description.contains(message) == true, "\(String(describing: error))")
  }

  /// One GeoJSON reader for place data and imports: the same file gives
  /// the same named points and the same refusal either way (they used to
  /// be two readers that disagreed on numbering and on unnamed points).
  @Test func placeDataAndImportsReadGeoJSONAlike() throws {
    let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"n1","geometry":{"type":"Point","coordinates":[24.9384,60.1708]},"properties":{"name":"Alepa","category":"shop=supermarket"}},{"type":"Feature","geometry":{"type":"LineString","coordinates":[[24,60],[25,61]]},"properties":{"name":"Route"}},{"type":"Feature","geometry":{"type":"Point","coordinates":[24.95,60.16]},"properties":{}},{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9,60.2]},"properties":{"name":"Kiosk"}}]}"#
    let provided = try GeoJSONPlaceProvider.parse(Data(text.utf8), source: "t.geojson")
    let imported = try TakeoutList.parse(Data(text.utf8), file: "t.geojson")
    #expect(provided.map(\.name) == imported.rows.map(\.title))
    #expect(provided.map(\.coordinate) == imported.rows.map(\.coordinate))
    #expect(provided.map(\.ref) == ["osm:n1", "osm:feature/4"])
    let bad = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":["24.9"]},"properties":{}}]}"#
    let providerError = #expect(throws: ProviderError.self) { try GeoJSONPlaceProvider.parse(Data(bad.utf8), source: "b.geojson") }
    let importError = #expect(throws: ImportError.self) { try TakeoutList.parse(Data(bad.utf8), file: "b.geojson") }
    #expect(providerError?.reason == importError?.message)
    #expect(importError?.message == "feature 0: coordinates must be [longitude, latitude] within range")
  }

  @Test func aMissingFileIsNamed() {
    let error = #expect(throws: ProviderError.self) { try GeoJSONPlaceProvider.load(path: "/nonexistent/places.geojson") }
    #expect(error?.description.contains("/nonexistent/places.geojson") == true)
  }
}
