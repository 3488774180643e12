import Domain
import Foundation
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
    ("not json at all", "not a GeoJSON FeatureCollection"),
    (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9,95]},"properties":{"name":"Bad"}}]}"#, "feature 1 ('Bad') has no valid [lon, lat]"),
  ])
  func badFilesAreNamed(_ contents: String, _ message: String) {
    let directory = TemporaryDirectory()
    let path = directory.write("bad.geojson", contents)
    let error = #expect(throws: ProviderError.self) { try GeoJSONPlaceProvider.load(path: path) }
    #expect(error?.description.contains(message) == true, "\(String(describing: error))")
  }

  @Test func aMissingFileIsNamed() {
    let error = #expect(throws: ProviderError.self) { try GeoJSONPlaceProvider.load(path: "/nonexistent/places.geojson") }
    #expect(error?.description.contains("/nonexistent/places.geojson") == true)
  }
}
