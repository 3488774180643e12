import Domain
import Geofencing

/// A provider over places held in memory, indexed by position (a grid) and
/// by name words, so both questions stay fast at 100k places. File-backed
/// providers load into one of these.
public struct InMemoryPlaceProvider: PlaceProvider {
  public let name: String
  public let places: [ProviderPlace]
  private let index: CircleIndex
  /// Folded name word → indices of places whose name has it.
  private let words: [Substring: [Int]]

  public init(name: String = "memory", places: [ProviderPlace]) {
    self.name = name
    self.places = places
    var index = CircleIndex()
    index.reserveCapacity(places.count)
    var words: [Substring: [Int]] = [:]
    for (i, place) in places.enumerated() {
      index.insert(key: i, latitude: place.coordinate.latitude, longitude: place.coordinate.longitude, radius: 1)
      for word in Set(place.allNames.flatMap { SearchText.fold($0).split(separator: " ") }) { words[word, default: []].append(i) }
    }
    self.index = index
    self.words = words
  }

  public var count: Int? { places.count }

  public func nearby(_ point: Coordinate, radius: Double, categories: Set<String>, limit: Int) throws -> [ProviderPlace] {
    guard limit > 0 else { return [] }
    // Ask the index for more than needed when filtering by category.
    var k = categories.isEmpty ? limit : limit * 8
    while true {
      let hits = index.nearest(latitude: point.latitude, longitude: point.longitude, k: k, maxDistance: radius)
      let matching = hits.map { places[$0.key] }.filter { categories.isEmpty || categories.contains($0.category) }
      if matching.count >= limit || hits.count < k { return Array(matching.prefix(limit)) }
      k *= 4
    }
  }

  public func search(_ text: String, near: Coordinate?, limit: Int) throws -> [ProviderPlace] {
    let query = SearchText.fold(text).split(separator: " ")
    guard let first = query.first, limit > 0 else { return [] }
    // Candidates from the rarest-looking word by prefix, then every word must match.
    let candidates = words.filter { $0.key.hasPrefix(first) }.flatMap(\.value)
    var seen = Set<Int>()
    let matching = candidates.filter { seen.insert($0).inserted }.map { places[$0] }.filter { place in
      place.allNames.contains { name in
        let folded = SearchText.fold(name)
        return query.allSatisfy { folded.contains($0) }
      }
    }
    let sorted: [ProviderPlace]
    if let near {
      sorted = matching.sorted { ($0.coordinate.distance(to: near), $0.ref) < ($1.coordinate.distance(to: near), $1.ref) }
    } else {
      sorted = matching.sorted { (SearchText.fold($0.name), $0.ref) < (SearchText.fold($1.name), $1.ref) }
    }
    return Array(sorted.prefix(limit))
  }
}
