import Domain

/// "Where can this task be done?": places of the categories its words mean,
/// plus places whose name matches them, ranked by distance with category
/// matches first among equals.
public struct Suggester: Sendable {
  public struct Suggestion: Hashable, Sendable {
    public let place: ProviderPlace
    public let distance: Double
    /// Why it was suggested: its category, or its name.
    public let reason: String

    public init(place: ProviderPlace, distance: Double, reason: String) {
      self.place = place
      self.distance = distance
      self.reason = reason
    }
  }

  public let provider: any PlaceProvider
  public let keywords: KeywordCategories

  public init(provider: any PlaceProvider, keywords: KeywordCategories = .builtIn) {
    self.provider = provider
    self.keywords = keywords
  }

  public func suggest(_ text: String, near point: Coordinate, radius: Double = 2000, limit: Int = 10) throws -> [Suggestion] {
    let categories = keywords.categories(for: text)
    var found: [String: Suggestion] = [:]
    if !categories.isEmpty {
      for place in try provider.nearby(point, radius: radius, categories: categories, limit: limit * 3) {
        found[place.ref] = Suggestion(place: place, distance: place.coordinate.distance(to: point), reason: place.category)
      }
    }
    // Name matches on the words that are not everyday verbs ("buy", "get").
    let stop: Set<String> = ["buy", "get", "pick", "up", "the", "a", "some", "at", "to", "for", "go", "return", "post"]
    let words = SearchText.fold(text).split(separator: " ").map(String.init).filter { !stop.contains($0) && $0.count > 2 }
    for word in words {
      for place in try provider.search(word, near: point, limit: limit) where found[place.ref] == nil {
        let distance = place.coordinate.distance(to: point)
        if distance <= radius { found[place.ref] = Suggestion(place: place, distance: distance, reason: "name") }
      }
    }
    return found.values.sorted { a, b in
      // A category match 300 m farther still ranks with a name match.
      let sa = a.distance + (a.reason == "name" ? 300 : 0)
      let sb = b.distance + (b.reason == "name" ? 300 : 0)
      return sa != sb ? sa < sb : a.place.ref < b.place.ref
    }.prefix(limit).map { $0 }
  }
}
