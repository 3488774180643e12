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
  /// Folded words of provider names, kept across rows: the same candidates
  /// come up again and again in one import.
  private let names = NameCache()
  /// Accept the best candidate automatically at or above this score…
  public var acceptScore = 0.85
  /// …and only this far ahead of the second.
  public var acceptMargin = 0.2
  public var candidateScore = 0.34
  /// With a position (a starred place), candidates this close are the ones that count.
  public var nearRadius = 80.0

  public init(provider: any PlaceProvider) { self.provider = provider }

  public func match(_ title: String, near hint: Coordinate? = nil) throws -> Match {
    let words = Self.words(title)
    guard !words.isEmpty else { return Match(decision: .unresolved, candidates: []) }
    var pool: [String: ProviderPlace] = [:]
    let terms = Self.searchTerms(title)
    for term in Set(terms.map { String($0.prefix(5)) }).sorted() where term.count >= 3 || terms.count == 1 {
      for place in try provider.search(term, near: hint, limit: 200) { pool[place.ref] = place }
    }
    if let hint {
      // A position narrows the question to what is there: names may differ
      // wholly between languages, so a close place with a fair name wins.
      for place in try provider.nearby(hint, radius: nearRadius, categories: [], limit: 30) { pool[place.ref] = place }
      let close = ranked(pool.values.filter { $0.coordinate.distance(to: hint) <= nearRadius }, words, minimum: 0.5, buildings: Self.buildings(in: pool.values))
      if let best = close.first, close.count == 1 || best.score - close[1].score >= acceptMargin {
        return Match(decision: .accepted(best.place), candidates: Array(close.prefix(5)))
      }
      // Equally good names (a building and the business in it): the pin
      // decides when one is clearly nearer.
      let tied = close.filter { $0.score >= (close.first?.score ?? 0) - 0.05 }
        .sorted { $0.place.coordinate.distance(to: hint) < $1.place.coordinate.distance(to: hint) }
      if tied.count > 1, tied[1].place.coordinate.distance(to: hint) - tied[0].place.coordinate.distance(to: hint) >= 15 {
        return Match(decision: .accepted(tied[0].place), candidates: tied + close.filter { c in !tied.contains { $0.place == c.place } })
      }
      if !close.isEmpty { return Match(decision: .candidates, candidates: Array(close.prefix(5))) }
      // Nothing fitting at the pin: fall back to names alone, to show candidates.
    }
    let scored = ranked(Array(pool.values), words, minimum: candidateScore, buildings: Self.buildings(in: pool.values))
    let top = Array(scored.prefix(5))
    guard let best = top.first else { return Match(decision: .unresolved, candidates: []) }
    // With a pin and nothing fitting there, names alone may suggest but never decide.
    if hint != nil { return Match(decision: .candidates, candidates: top) }
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

  /// Places that hold others (a mall, a department store, a market hall, a
  /// station): a title may name a branch by the building it is in ("Robert's
  /// Coffee Stockmann", "Alko Forum").
  static let buildingCategories: Set<String> = [
    "shop=mall", "shop=department_store", "amenity=marketplace", "railway=station", "public_transport=station", "amenity=bus_station",
  ]
  /// How far from a building's point a place may be and still be in it:
  /// half the width of a large department store or mall.
  static let insideBuilding = 100.0

  static func buildings<Places: Sequence<ProviderPlace>>(in places: Places) -> [ProviderPlace] {
    places.filter { buildingCategories.contains($0.category) }.sorted { $0.ref < $1.ref }
  }

  /// Places scored by their best-matching name, best first (ties by ref).
  func ranked(_ places: [ProviderPlace], _ words: [String], minimum: Double, buildings: [ProviderPlace] = []) -> [(place: ProviderPlace, score: Double)] {
    var scored: [(place: ProviderPlace, score: Double)] = []
    for place in places {
      var best = 0.0
      // What else the title may say of the place: its street, its kind
      // ("Restaurant Kappeli") and the building it is in.
      var address = (place.address.map { names.words($0) } ?? []) + names.words(Self.kind(place.category))
      for building in buildings where building.ref != place.ref && Self.isInside(place, building) {
        address += building.allNames.flatMap { names.words($0) }
      }
      for name in place.allNames { best = max(best, Self.score(words, names.words(name), address: address)) }
      if best >= minimum { scored.append((place, best)) }
    }
    scored.sort { a, b in a.score != b.score ? a.score > b.score : a.place.ref < b.place.ref }
    return scored
  }

  /// Folded, normalised words made tokens (PlaceWords): one language's
  /// "Old Church" and another's "Vanha kirkko" become the same tokens.
  static func words(_ text: String) -> [String] {
    PlaceWords.shared.tokens(SearchText.fold(text).split(separator: " ").map { normalized(String($0)) })
  }

  /// What to ask the provider for a title word: the word and, for a word
  /// with equivalents, theirs (so "church" finds "kirkko").
  static func searchTerms(_ title: String) -> [String] {
    let table = PlaceWords.shared
    var terms: [String] = []
    for word in SearchText.fold(title).split(separator: " ").map(String.init) where !table.stopwords.contains(word) {
      terms.append(word)
      guard let groups = table.groups(of: word) else { continue }
      for group in groups { terms += (table.members[group] ?? []).filter { $0 != word && $0.count >= 4 } }
    }
    return terms
  }

  /// Street words in the forms people type: Finnish genitives as in place
  /// names ("Yrjönkadun uimahalli" is on Yrjönkatu) and common abbreviations.
  static func normalized(_ word: String) -> String {
    let abbreviations = ["st": "street", "str": "strasse", "rd": "road", "ave": "avenue"]
    if let full = abbreviations[word] { return full }
    for (genitive, base) in [("kadun", "katu"), ("tien", "tie"), ("torin", "tori"), ("puiston", "puisto"), ("kujan", "kuja"), ("rannan", "ranta")]
    where word.count > genitive.count + 2 && word.hasSuffix(genitive) {
      return String(word.dropLast(genitive.count)) + base
    }
    return word
  }

  /// Word overlap, where a word matches another that starts with it (at
  /// least 5 letters: "kauppahalli" / "kauppahallin"); numbers must match
  /// exactly. A name wholly inside the title (the title adds a branch) or
  /// the title wholly inside the name scores high but below an exact match.
  /// Title words the name lacks count against it ("Teerenpeli Kamppi" is
  /// not the Teerenpeli on Keskuskatu, "Cathedral Crypt" not the
  /// cathedral) unless the place's address has them ("Hesburger Kaivokatu"
  /// is the Hesburger at Kaivokatu): a branch must be shown to be this one.
  static func score(_ title: [String], _ name: [String], address: [String] = []) -> Double {
    guard !title.isEmpty, !name.isEmpty else { return 0 }
    let nameInTitle = name.filter { n in title.contains { same($0, n) } }.count
    let leftover = title.filter { t in !name.contains { same(t, $0) } }
    let titleInName = title.count - leftover.count
    let unexplained = leftover.filter { t in !address.contains { inAddress(t, $0) } }.count
    if nameInTitle == name.count && unexplained == 0 { return 1 }
    if nameInTitle == name.count { return 0.9 - 0.1 * Double(unexplained) }
    if titleInName == title.count { return 0.88 - 0.05 * Double(name.count - nameInTitle - 1) }
    // The title wholly said by most of the name and the address ("Fazer Café
    // Kluuvikatu" for "Karl Fazer Café" on Kluuvikatu): as good as a title
    // inside the name. One shared word is too little: it is often the kind
    // ("Café Esplanad" is not Café Strindberg in Galleria Esplanad).
    if unexplained == 0, 2 * nameInTitle >= name.count, nameInTitle >= 2 {
      return 0.88 - 0.05 * Double(name.count - nameInTitle - 1)
    }
    return Double(nameInTitle + titleInName) / Double(name.count + title.count)
  }

  /// In the building: at its street address, or close to its point.
  static func isInside(_ place: ProviderPlace, _ building: ProviderPlace) -> Bool {
    if let a = place.address, let b = building.address, SearchText.fold(a) == SearchText.fold(b), a.contains(where: \.isNumber) { return true }
    return place.coordinate.distance(to: building.coordinate) <= insideBuilding
  }

  /// `amenity=fast_food` → "fast food".
  static func kind(_ category: String) -> String {
    (category.split(separator: "=").last.map(String.init) ?? "").replacingOccurrences(of: "_", with: " ")
  }

  static func same(_ a: String, _ b: String) -> Bool {
    if a == b { return true }
    if a.hasPrefix("@") || b.hasPrefix("@") { return PlaceWords.sameGroup(a, b) }
    if a.first?.isNumber == true || b.first?.isNumber == true { return false }
    let (short, long) = a.count <= b.count ? (a, b) : (b, a)
    return short.count >= 5 && long.hasPrefix(short)
  }

  /// A title word found in an address word: the same word, or the end of a
  /// compound street name ("esplanadi" in "pohjoisesplanadi").
  static func inAddress(_ word: String, _ addressWord: String) -> Bool {
    if same(word, addressWord) { return true }
    guard !word.hasPrefix("@"), word.count >= 5, word.first?.isNumber == false else { return false }
    return addressWord.hasSuffix(word) || addressWord.hasPrefix(word)
  }
}
