import Domain

/// Matching saved places by name and tags, and ordering the results.
public enum PlaceSearch {
  public enum Order: Sendable, Equatable {
    case alphabetical
    /// Nearest to a point given once, so the order is fixed for the snapshot.
    case nearest(Coordinate)
  }

  public struct Result: Sendable, Equatable {
    public let place: Place
    /// Metres from the `nearest` point; nil for A–Z or places with no coordinate.
    public let distance: Double?
  }

  static func run(query: String, over places: [Place], order: Order) -> [Result] {
    let matching = places.filter { place in
      SearchText.matches(query: query, in: ([place.name] + place.personal.tags).joined(separator: " "))
    }
    switch order {
    case .alphabetical:
      return matching.sorted(by: alphabetical).map { Result(place: $0, distance: nil) }
    case .nearest(let point):
      return matching.map { Result(place: $0, distance: $0.coordinate.map { $0.distance(to: point) }) }
        .sorted { a, b in
          // Places with no coordinate go last; ties by name then id keep the order stable.
          let da = a.distance ?? .infinity
          let db = b.distance ?? .infinity
          if da != db { return da < db }
          return alphabetical(a.place, b.place)
        }
    }
  }

  static func alphabetical(_ a: Place, _ b: Place) -> Bool {
    let fa = SearchText.fold(a.name)
    let fb = SearchText.fold(b.name)
    return fa != fb ? fa < fb : a.id < b.id
  }
}
