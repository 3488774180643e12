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
  private let byRef: [String: Int]
  /// Every place's names, folded once: folding is the expensive part of a search.
  private let folded: [[String]]
  /// Each place's position in A–Z order (folded name, then ref), so results
  /// sort by an integer rather than by comparing strings.
  private let alphabeticalRank: [Int]

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
    let folded = places.map { $0.allNames.map(SearchText.fold) }
    self.folded = folded
    var rank = [Int](repeating: 0, count: places.count)
    for (position, index) in places.indices.sorted(by: { (folded[$0][0], places[$0].ref) < (folded[$1][0], places[$1].ref) }).enumerated() {
      rank[index] = position
    }
    alphabeticalRank = rank
    var byRef: [String: Int] = [:]
    for (i, place) in places.enumerated() { byRef[place.ref] = i }
    self.byRef = byRef
  }

  public func place(ref: String) throws -> ProviderPlace? { byRef[ref].map { places[$0] } }

  /// A scan: addresses are asked for by a person, one query at a time.
  public func searchAddress(_ text: String, near: Coordinate?, limit: Int) throws -> [ProviderPlace] {
    let query = SearchText.fold(text).split(separator: " ").map(String.init)
    guard !query.isEmpty, limit > 0 else { return [] }
    var hits: [Int] = []
    for (i, place) in places.enumerated() {
      guard let address = place.address else { continue }
      let words = SearchText.fold(address).split(separator: " ").map(String.init)
      let all = query.allSatisfy { word in
        // A house number must match exactly ("2" is not "22"); a street word may be its start.
        word.first?.isNumber == true ? words.contains(word) : words.contains { $0.hasPrefix(word) }
      }
      if all { hits.append(i) }
    }
    let found = hits.map { places[$0] }
    let sorted = near.map { point in
      found.sorted { ($0.coordinate.distance(to: point), $0.ref) < ($1.coordinate.distance(to: point), $1.ref) }
    } ?? found.sorted { (SearchText.fold($0.name), $0.ref) < (SearchText.fold($1.name), $1.ref) }
    return Array(sorted.prefix(limit))
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
    guard !query.isEmpty, limit > 0 else { return [] }
    // Drive from the query word with the fewest places: a common word
    // ("market") must not make every search read thousands of places.
    var driver: [Int]?
    var driverKeys = 0
    for word in query {
      let keys = words.filter { $0.key.hasPrefix(word) }
      let postings = keys.flatMap(\.value)
      if driver == nil || postings.count < driver!.count {
        driver = postings
        driverKeys = keys.count
      }
      if driver!.isEmpty { return [] }
    }
    // One word: its postings already are the answer (a name word starts with
    // it). Several: each place must contain every word.
    var hits = driver ?? []
    if driverKeys > 1 {
      var seen = Set<Int>()
      hits = hits.filter { seen.insert($0).inserted }
    }
    if query.count > 1 {
      hits = hits.filter { index in folded[index].contains { name in query.allSatisfy { name.contains($0) } } }
    }
    let sorted: [Int]
    if let near {
      let distance = Dictionary(uniqueKeysWithValues: hits.map { ($0, places[$0].coordinate.distance(to: near)) })
      sorted = hits.sorted { (distance[$0]!, places[$0].ref) < (distance[$1]!, places[$1].ref) }
    } else {
      sorted = hits.sorted { alphabeticalRank[$0] < alphabeticalRank[$1] }
    }
    return sorted.prefix(limit).map { places[$0] }
  }
}
