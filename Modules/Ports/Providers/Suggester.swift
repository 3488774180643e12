import Domain

/// "Where can this task be done?": places of the categories its words mean,
/// plus places whose name the task gives, ranked by how well the kind fits
/// (KeywordCategories.fit; a named place first), then by distance.
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
    let fit = keywords.fit(for: text)
    var found: [String: (suggestion: Suggestion, fit: Double)] = [:]
    if !fit.isEmpty {
      for place in try provider.nearby(point, radius: radius, categories: Set(fit.keys), limit: max(limit * 5, 50)) {
        found[place.ref] = (Suggestion(place: place, distance: place.coordinate.distance(to: point), reason: place.category), fit[place.category] ?? 0)
      }
    }
    // Names, for words that are not everyday verbs and not kinds of place
    // (a place the task names comes first): a whole word of the name ("gym"
    // is not "Gymnasiet"), or the start of one for longer words.
    let stop: Set<String> = ["buy", "get", "pick", "up", "the", "a", "some", "at", "to", "for", "go", "return", "post", "and", "new", "my"]
    let words = SearchText.fold(text).split(separator: " ").map(String.init).filter { !stop.contains($0) && $0.count > 2 && !keywords.knows($0) }
    for word in words {
      for place in try provider.search(word, near: point, limit: limit) {
        let named = place.allNames.contains { name in
          SearchText.fold(name).split(separator: " ").contains { $0 == word || (word.count >= 5 && $0.hasPrefix(word)) }
        }
        let distance = place.coordinate.distance(to: point)
        guard named, distance <= radius else { continue }
        // Named by the task and of a fitting kind ("cake at Ekberg"), or the
        // task names no kind: the place asked for comes first. A name that
        // only shares a word ("coffee with Anna" and the pub Anna.K) does not.
        let kindFit = fit[place.category] ?? 0
        let asked = kindFit > 0 || fit.isEmpty
        found[place.ref] = (Suggestion(place: place, distance: distance, reason: "name"), asked ? kindFit + 1.5 : 0.5)
      }
    }
    // How well the kind fits comes first, then distance: a bike shop 1.5 km
    // away before a city-bike dock next door for "fix bike".
    return found.values.sorted { a, b in
      let fa = (a.fit * 10).rounded(), fb = (b.fit * 10).rounded()
      if fa != fb { return fa > fb }
      if a.suggestion.distance != b.suggestion.distance { return a.suggestion.distance < b.suggestion.distance }
      return a.suggestion.place.ref < b.suggestion.place.ref
    }.prefix(limit).map(\.suggestion)
  }
}
