import CurlHTTP
import Domain
import Foundation
import Gateway
import MicroHTTP
import Overpass
import Providers
import Testing
import TestSupport

/// `overpass:URL` against a local HTTP server replaying a recorded answer
/// (there is no network here): the same suite as every provider, the query
/// it sends, and a clear error when the server refuses.
@Suite struct OverpassTests {
  /// The conformance suite's places as an Overpass server would answer
  /// (`out center tags`): nodes with lat/lon, a way with a center.
  static let recorded: Data = {
    let elements = PlaceProviderConformance.places.enumerated().map { index, place -> [String: Any] in
      let parts = place.ref.split(separator: "/")
      let (key, value) = { () -> (String, String) in
        let split = place.category.split(separator: "=").map(String.init)
        return (split[0], split[1])
      }()
      var tags: [String: Any] = ["name": place.name, key: value]
      if let address = place.address { tags["addr:street"] = address }
      var element: [String: Any] = ["type": String(parts[0].dropFirst(4)), "id": Int(parts[1])!, "tags": tags]
      if index == 2 {
        element["center"] = ["lat": place.coordinate.latitude, "lon": place.coordinate.longitude]
      } else {
        element["lat"] = place.coordinate.latitude
        element["lon"] = place.coordinate.longitude
      }
      return element
    } + [["type": "node", "id": 77, "lat": 60.17, "lon": 24.94, "tags": ["highway": "bus_stop"]]]
    return try! JSONSerialization.data(withJSONObject: ["version": 0.6, "generator": "Overpass API (recorded)", "elements": elements])
  }()

  func replay(status: Int = 200) throws -> (RecordingHTTPHandler, MicroHTTPServer, URL) {
    let handler = RecordingHTTPHandler { _ in status == 200 ? .json(200, Self.recorded) : .failure(status, "rate limited") }
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0))
    let port = try server.start(handler)
    return (handler, server, URL(string: "http://127.0.0.1:\(port)/api/interpreter")!)
  }

  @Test func passesTheSharedProviderSuite() throws {
    let (_, server, url) = try replay()
    defer { server.stop() }
    try PlaceProviderConformance.verify { OverpassPlaceProvider(endpoint: url, client: CurlHTTPClient()) }
  }

  @Test func sendsAQueryBuiltFromTheCategoriesAndTheArea() throws {
    let (handler, server, url) = try replay()
    defer { server.stop() }
    _ = try OverpassPlaceProvider(endpoint: url, client: CurlHTTPClient()).nearby(PlaceProviderConformance.center, radius: 800, categories: ["shop=supermarket", "amenity=cafe"], limit: 5)
    let request = try #require(handler.requests.last)
    #expect(request.method == "POST" && request.header("content-type") == "application/x-www-form-urlencoded")
    let body = String(decoding: request.body, as: UTF8.self)
    let query = try #require(body.hasPrefix("data=") ? String(body.dropFirst(5)).removingPercentEncoding : nil)
    #expect(query.contains(#"nwr["amenity"="cafe"]["name"](around:800,60.169900,24.938400);"#))
    #expect(query.contains(#"nwr["shop"="supermarket"]["name"](around:800,60.169900,24.938400);"#))
    #expect(query.hasPrefix("[out:json]"))
  }

  /// A hostile keyword or category cannot change the query's shape.
  @Test func valuesCannotInjectQueryText() throws {
    let (handler, server, url) = try replay()
    defer { server.stop() }
    let provider = OverpassPlaceProvider(endpoint: url, client: CurlHTTPClient())
    _ = try provider.nearby(PlaceProviderConformance.center, radius: 100, categories: [#"shop"="x"];out;("#], limit: 5)
    _ = try provider.search(#"milk"];node(1);out;[""#, near: nil, limit: 5)
    for request in handler.requests {
      let query = String(decoding: request.body, as: UTF8.self).dropFirst(5).removingPercentEncoding ?? ""
      #expect(!query.contains("node(1)") && !query.contains(#"="x"];"#), "\(query)")
    }
    #expect(try provider.place(ref: "osm:node/1);out;(node(2") == nil)
  }

  @Test func aRefusingServerIsAClearError() throws {
    let (_, server, url) = try replay(status: 429)
    defer { server.stop() }
    do {
      _ = try OverpassPlaceProvider(endpoint: url, client: CurlHTTPClient()).nearby(PlaceProviderConformance.center, radius: 100, categories: [], limit: 5)
      Issue.record("no error")
    } catch let error as ProviderError {
      #expect(error.description.contains("429") && error.description.contains("try again later"))
    }
  }
}

/// What FuzzOverpass found: an element id too large for Int64 trapped the
/// whole program; such an element (or a fractional or negative id) is now
/// skipped and the rest of the answer kept.
@Suite struct OverpassHostileAnswerTests {
  @Test(arguments: ["277777777777777777777777777777777777777777777777777777777777777", "1e300", "0.5", "-1e30"])
  func anIdThatIsNoWholeNumberIsSkippedNotATrap(_ id: String) throws {
    let text = #"{"elements":[{"type":"node","id":1,"lat":60.17,"lon":24.94,"tags":{"name":"Alepa","shop":"convenience"}},{"type":"way","id":\#(id),"center":{"lat":60.16,"lon":24.93},"tags":{"name":"Vanha kirkko"}}]}"#
    let places = try OverpassResponse.places(Data(text.utf8), provider: "overpass:test")
    #expect(places.map(\.ref) == ["osm:node/1"])
  }
}

@Suite struct OverpassOpeningHoursTests {
  @Test func aPlacesOpeningHoursComeWithIt() throws {
    let text = #"{"elements":[{"type":"node","id":1,"lat":60.17,"lon":24.94,"tags":{"name":"Alepa","shop":"convenience","opening_hours":"Mo-Sa 07:00-23:00; Su 09:00-23:00"}},{"type":"node","id":2,"lat":60.16,"lon":24.93,"tags":{"name":"Kiosk","shop":"kiosk"}}]}"#
    let places = try OverpassResponse.places(Data(text.utf8), provider: "overpass:test")
    #expect(places.map(\.openingHours) == ["Mo-Sa 07:00-23:00; Su 09:00-23:00", nil])
    let helsinki = try #require(TimeZone(identifier: "Europe/Helsinki"))
    // 2026-12-06 is a Sunday; 08:00 in Helsinki is 06:00 UTC.
    #expect(places[0].isOpen(at: Date(timeIntervalSince1970: 1_796_536_800), in: helsinki) == false)
    #expect(places[0].isOpen(at: Date(timeIntervalSince1970: 1_796_536_800 + 3600), in: helsinki) == true)
    #expect(places[1].isOpen(at: Date(timeIntervalSince1970: 1_796_536_800), in: helsinki) == nil)
  }
}
