import Domain
import Foundation
import Gateway
import Providers

/// `overpass:URL`: places from an Overpass API server (OpenStreetMap),
/// asked per question. Distances, category and name filtering and the
/// order are applied here, so the answers follow the provider contract
/// whatever the server adds.
public struct OverpassPlaceProvider: PlaceProvider {
  public let endpoint: URL
  public var name: String { "overpass:\(endpoint.absoluteString)" }
  public var count: Int? { nil }
  let client: any HTTPSending
  let timeout: TimeInterval

  public init(endpoint: URL, client: any HTTPSending, timeout: TimeInterval = 30) {
    self.endpoint = endpoint
    self.client = client
    self.timeout = timeout
  }

  public func nearby(_ point: Coordinate, radius: Double, categories: Set<String>, limit: Int) throws -> [ProviderPlace] {
    let places = try run(OverpassQuery.nearby(point, radius: radius, categories: categories, limit: limit))
    return Array(
      places.filter { place in
        place.coordinate.distance(to: point) <= radius && (categories.isEmpty || categories.contains(place.category))
      }
      .sorted { ($0.coordinate.distance(to: point), $0.ref) < ($1.coordinate.distance(to: point), $1.ref) }
      .prefix(limit))
  }

  public func search(_ text: String, near: Coordinate?, limit: Int) throws -> [ProviderPlace] {
    guard let query = OverpassQuery.search(text, near: near, limit: limit) else { return [] }
    let matching = try run(query).filter { place in place.allNames.contains { SearchText.matches(query: text, in: $0) } }
    let ordered = near.map { point in
      matching.sorted { ($0.coordinate.distance(to: point), $0.ref) < ($1.coordinate.distance(to: point), $1.ref) }
    } ?? matching.sorted { (SearchText.fold($0.name), $0.ref) < (SearchText.fold($1.name), $1.ref) }
    return Array(ordered.prefix(limit))
  }

  public func place(ref: String) throws -> ProviderPlace? {
    guard let query = OverpassQuery.lookup(ref) else { return nil }
    return try run(query).first { $0.ref == ref }
  }

  /// POSTs the query as Overpass expects (`data=` form field) and reads the elements.
  func run(_ query: String) throws -> [ProviderPlace] {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    let body = "data=" + (query.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    let response: HTTPResponse
    do {
      response = try client.send("POST", endpoint, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(body.utf8), timeout: timeout)
    } catch {
      throw ProviderError(provider: name, reason: "unreachable: \(error)")
    }
    guard response.status == 200 else {
      let hint = response.status == 429 ? " (the server limits how often it may be asked; try again later)" : ""
      throw ProviderError(provider: name, reason: "the server answered \(response.status)\(hint)")
    }
    return try OverpassResponse.places(response.body, provider: name)
  }
}
