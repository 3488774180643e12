import Domain
import Foundation
import Persistence
import Providers

/// Suggesting where a task can be done, and turning chosen suggestions into
/// saved places (one pin per provider place: a place saved before is reused).
public struct SuggestionService: Sendable {
  let context: EngineContext
  let suggester: Suggester
  /// How long provider data on a saved place stays fresh.
  public static let providerDataLifetime: TimeInterval = 30 * 86_400

  public init(context: EngineContext, suggester: Suggester) {
    self.context = context
    self.suggester = suggester
  }

  /// Places anywhere in the provider's data by name or by address
  /// ("Stockmann", "Mannerheimintie 22"): names first, nearest to `near`
  /// first when given.
  public func find(_ text: String, near: Coordinate? = nil, limit: Int = 10) throws -> [ProviderPlace] {
    let provider = suggester.provider
    var found = try provider.search(text, near: near, limit: limit)
    func add(_ places: [ProviderPlace]) {
      for place in places where !found.contains(where: { $0.ref == place.ref }) { found.append(place) }
    }
    add(try provider.searchAddress(text, near: near, limit: limit))
    // A name then where it is ("Hesburger Kaivokatu"): the name's words, the rest in the address.
    let words = text.split(separator: " ").map(String.init)
    if words.count > 1 {
      for cut in 1..<words.count {
        let rest = words[cut...].map(SearchText.fold)
        let named = try provider.search(words[..<cut].joined(separator: " "), near: near, limit: 200)
        add(named.filter { place in Self.address(of: place, contains: rest) })
      }
    }
    // The place of exactly that name first ("Stockmann" before "Stockmann Q-Park").
    let folded = SearchText.fold(text)
    let exact = found.filter { place in place.allNames.contains { SearchText.fold($0) == folded } }
    return Array((exact + found.filter { place in !exact.contains { $0.ref == place.ref } }).prefix(limit))
  }

  /// Street words by their start, house numbers exactly.
  static func address(of place: ProviderPlace, contains words: [String]) -> Bool {
    guard let address = place.address else { return false }
    let own = SearchText.fold(address).split(separator: " ").map(String.init)
    return words.allSatisfy { word in word.first?.isNumber == true ? own.contains(word) : own.contains { $0.hasPrefix(word) } }
  }

  /// The one place a name or address means in the provider's data: a
  /// whole-name match (accents and case ignored) if exactly one, else a
  /// single hit; nil when nothing; a `DomainError.conflict` listing them
  /// when several.
  public func resolve(_ text: String, near: Coordinate? = nil) throws -> ProviderPlace? {
    let found = try find(text, near: near, limit: 10)
    let folded = SearchText.fold(text)
    let whole = found.filter { place in place.allNames.contains { SearchText.fold($0) == folded } }
    if whole.count == 1 { return whole[0] }
    if found.count == 1 { return found[0] }
    guard !found.isEmpty else { return nil }
    let listed = (whole.isEmpty ? found : whole).prefix(5).map { "\($0.name)" + ($0.address.map { ", \($0)" } ?? "") }
    throw DomainError.conflict(
      "'\(text)' matches several places in the map data: \(listed.joined(separator: "; ")); "
        + "say which with its address (whilehere place search \"\(text)\")")
  }

  /// A name in the map data close to one that found nothing: among the
  /// places whose name begins with the longest leading run of its words
  /// ("K-Supermarket Kluuvi" for "K-Supermarket Kamppi"), the one nearest
  /// by edits. A place the run finds by a word further into a name (a
  /// café whose English name ends in "shop", for "Shop 1") is no guess:
  /// nothing says it is the one meant. When no name begins so, a typo in
  /// the first word ("Stokmann"): the places its shortening starts find
  /// (down to three letters), kept only within a quarter of the name's
  /// letters in edits; else nil.
  public func nearestName(to text: String) throws -> String? {
    var words = text.split(separator: " ").map(String.init)
    let folded = Array(SearchText.fold(text))
    func nearest(_ found: [ProviderPlace]) -> (name: String, edits: Int)? {
      found.map { ($0.name, Reference.editDistance(folded, Array(SearchText.fold($0.name)))) }.min { $0.1 < $1.1 }
    }
    guard let first = words.first.map(Array.init) else { return nil }
    while !words.isEmpty {
      let typed = words.joined(separator: " ")
      let run = SearchText.fold(typed)
      let found = try suggester.provider.search(typed, near: nil, limit: 20)
      let leading = found.filter { place in place.allNames.contains { Self.name($0, beginsWith: run) } }
      if let best = nearest(leading) { return best.name }
      words.removeLast()
    }
    for length in stride(from: min(first.count - 1, 6), through: 3, by: -1) {
      guard let best = nearest(try suggester.provider.search(String(first.prefix(length)), near: nil, limit: 50)) else { continue }
      return best.edits <= max(1, folded.count / 4) ? best.name : nil
    }
    return nil
  }

  /// Whether `name`, folded, is `run` (folded) or begins with it and a word break.
  static func name(_ name: String, beginsWith run: String) -> Bool {
    let name = SearchText.fold(name)
    guard name.hasPrefix(run) else { return false }
    return name.count == run.count || name.dropFirst(run.count).first == " "
  }

  public func suggest(_ text: String, near point: Coordinate, radius: Double = 2000, limit: Int = 10) throws -> [Suggester.Suggestion] {
    try suggester.suggest(text, near: point, radius: radius, limit: limit)
  }

  /// Without a position: suggestions near the person's saved places (up to
  /// `anchors` of them), each ranked by its distance to the nearest saved
  /// place, which the reason names.
  public func suggestAlongSavedPlaces(_ text: String, radius: Double = 1000, limit: Int = 10, anchors: Int = 50) throws -> [Suggester.Suggestion] {
    let saved = try savedPositions(first: anchors)
    var best: [String: Suggester.Suggestion] = [:]
    for (name, point) in saved {
      for suggestion in try suggester.suggest(text, near: point, radius: radius, limit: limit) where best[suggestion.place.ref].map({ suggestion.distance < $0.distance }) ?? true {
        best[suggestion.place.ref] = Suggester.Suggestion(place: suggestion.place, distance: suggestion.distance, reason: "\(suggestion.reason), near your \(name)")
      }
    }
    return Array(best.values.sorted { ($0.distance, $0.place.ref) < ($1.distance, $1.place.ref) }.prefix(limit))
  }

  /// The first `count` saved places with a position, by name (then id),
  /// with their positions. Where the store reads part of itself
  /// (`PartialReading`) the names are read and then only as many places
  /// as it takes, not every place.
  func savedPositions(first count: Int) throws -> [(name: String, position: Coordinate)] {
    guard let names = try context.placeNames() else {
      let state = try context.wholeState()
      return Array(state.placeNames.sorted(by: Self.byName).lazy.compactMap { positioned($0.id, in: state) }.prefix(count))
    }
    var found: [(name: String, position: Coordinate)] = []
    var after: (id: PlaceID, name: String)?
    // The next places by name, as many as still wanted: most have a position, so one read usually does.
    while found.count < count {
      let batch = Self.first(count - found.count, of: names, after: after)
      guard let last = batch.last else { break }
      let state = try context.state(ofPlaces: batch.map(\.id))
      for entry in batch { if let saved = positioned(entry.id, in: state) { found.append(saved) } }
      after = last
    }
    return found
  }

  static func byName(_ a: (id: PlaceID, name: String), _ b: (id: PlaceID, name: String)) -> Bool { (a.name, a.id) < (b.name, b.id) }

  /// The first `count` of `names` in `byName` order that come after
  /// `after`, in that order: one pass keeping the smallest, not a sort of
  /// every name (a store of 100,000 places is asked for 50).
  static func first(_ count: Int, of names: [(id: PlaceID, name: String)], after: (id: PlaceID, name: String)?) -> [(id: PlaceID, name: String)] {
    var kept: [(id: PlaceID, name: String)] = []
    kept.reserveCapacity(count + 1)
    for entry in names {
      if let after, !byName(after, entry) { continue }
      if kept.count == count, let largest = kept.last, !byName(entry, largest) { continue }
      var low = 0
      var high = kept.count
      while low < high {
        let middle = (low + high) / 2
        if byName(kept[middle], entry) { low = middle + 1 } else { high = middle }
      }
      kept.insert(entry, at: low)
      if kept.count > count { kept.removeLast() }
    }
    return kept
  }

  private func positioned(_ id: PlaceID, in state: StoreState?) -> (name: String, position: Coordinate)? {
    guard let place = state?.places[id], let position = place.coordinate else { return nil }
    return (place.name, position)
  }

  /// Saves the provider place `ref` names (once: a place saved before is
  /// reused) and returns its id; nil when the provider has no such place.
  public func save(ref: String) throws -> PlaceID? {
    guard let place = try suggester.provider.place(ref: ref) else { return nil }
    return try save([place]).first
  }

  /// Saves the chosen provider places (reusing saved ones with the same
  /// provider ref) and returns their ids, in the order given. One batch.
  public func save(_ chosen: [ProviderPlace]) throws -> [PlaceID] {
    // Every place: a saved one is found by its provider ref, which only the places hold.
    let state = try context.wholeState()
    let now = context.clock.now()
    var byRef: [String: PlaceID] = [:]
    for place in state.places.values { if let ref = place.provider?.ref { byRef[ref] = place.id } }
    var operations: [StoreOperation] = []
    var ids: [PlaceID] = []
    for candidate in chosen {
      if let existing = byRef[candidate.ref] {
        ids.append(existing)
        continue
      }
      let place = Place(
        id: PlaceID(context.ids.next()), personal: PersonalPlaceData(),
        provider: ProviderPlaceData(
          ref: candidate.ref, name: candidate.name, coordinate: candidate.coordinate, address: candidate.address,
          category: candidate.category, fetchedAt: now, expiresAt: now.addingTimeInterval(Self.providerDataLifetime),
          hours: candidate.openingHours),
        createdAt: now)
      operations.append(.put(.place(place)))
      byRef[candidate.ref] = place.id
      ids.append(place.id)
    }
    try context.store.append(operations)
    return ids
  }
}
