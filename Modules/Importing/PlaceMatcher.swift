import Domain
import Providers

/// Matches a name as a person typed it ("K-Market Lonnrotinkatu", "Old
/// Market Hall") to provider places. Names are compared as folded words
/// (accents, case and punctuation ignored; branch words and numbers kept);
/// a candidate is accepted automatically only when it is clearly right.
public struct PlaceMatcher: Sendable {
  public enum Decision: Equatable, Sendable {
    case accepted(ProviderPlace)
    /// A person should choose among these (best first).
    case candidates
    case unresolved
  }

  public struct Match: Equatable, Sendable {
    public let decision: Decision
    /// Best first, with scores in 0…1.
    public let candidates: [(place: ProviderPlace, score: Double)]

    public static func == (a: Match, b: Match) -> Bool {
      a.decision == b.decision && a.candidates.map(\.place) == b.candidates.map(\.place)
    }
  }

  public let provider: any PlaceProvider
  /// Accept the best candidate automatically at or above this score…
  public var acceptScore = 0.85
  /// …and only this far ahead of the second.
  public var acceptMargin = 0.2
  public var candidateScore = 0.34

  public init(provider: any PlaceProvider) { self.provider = provider }

  public func match(_ title: String, near hint: Coordinate? = nil) throws -> Match {
    let words = Self.words(title)
    guard !words.isEmpty else { return Match(decision: .unresolved, candidates: []) }
    var pool: [String: ProviderPlace] = [:]
    for word in words where word.count >= 3 || words.count == 1 {
      for place in try provider.search(String(word.prefix(5)), near: hint, limit: 200) { pool[place.ref] = place }
    }
    var scored: [(place: ProviderPlace, score: Double)] = []
    for place in pool.values {
      var best = 0.0
      for name in place.allNames { best = max(best, Self.score(words, Self.words(name))) }
      if best >= candidateScore { scored.append((place, best)) }
    }
    scored.sort { a, b in a.score != b.score ? a.score > b.score : a.place.ref < b.place.ref }
    let top = Array(scored.prefix(5))
    guard let best = top.first else { return Match(decision: .unresolved, candidates: []) }
    let second = top.count > 1 ? top[1].score : 0
    // Two objects with the same name and category close together are one place drawn twice.
    var sameThing = false
    if top.count > 1 {
      let other = top[1].place
      let sameName = SearchText.fold(other.name) == SearchText.fold(best.place.name)
      let close = other.coordinate.distance(to: best.place.coordinate) < 50
      sameThing = sameName && other.category == best.place.category && close
    }
    // The only candidate matching every word both ways beats partial ones
    // ("Alepa Kluuvi" over a bare "Alepa"); otherwise it must lead clearly.
    let onlyExact = best.score == 1 && second < 1
    let clear = onlyExact || best.score - second >= acceptMargin || sameThing
    if best.score >= acceptScore && clear {
      return Match(decision: .accepted(best.place), candidates: top)
    }
    return Match(decision: .candidates, candidates: top)
  }

  static func words(_ text: String) -> [String] {
    SearchText.fold(text).split(separator: " ").map(String.init)
  }

  /// Word overlap, where a word matches another that starts with it (at
  /// least 5 letters: "kauppahalli" / "kauppahallin"); numbers must match
  /// exactly. A name wholly inside the title (the title adds a branch) or
  /// the title wholly inside the name scores high but below an exact match.
  static func score(_ title: [String], _ name: [String]) -> Double {
    guard !title.isEmpty, !name.isEmpty else { return 0 }
    func same(_ a: String, _ b: String) -> Bool {
      if a == b { return true }
      if a.first?.isNumber == true || b.first?.isNumber == true { return false }
      let (short, long) = a.count <= b.count ? (a, b) : (b, a)
      return short.count >= 5 && long.hasPrefix(short)
    }
    let nameInTitle = name.filter { n in title.contains { same($0, n) } }.count
    let titleInName = title.filter { t in name.contains { same(t, $0) } }.count
    if nameInTitle == name.count && titleInName == title.count { return 1 }
    if nameInTitle == name.count { return 0.9 - 0.05 * Double(title.count - titleInName - 1) }
    if titleInName == title.count { return 0.88 - 0.05 * Double(name.count - nameInTitle - 1) }
    return Double(nameInTitle + titleInName) / Double(name.count + title.count)
  }
}
