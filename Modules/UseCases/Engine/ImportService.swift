import Domain
import Foundation
import Importing
import Persistence
import Providers

/// Importing a saved list: each row becomes a source entry; a row matched
/// clearly becomes a saved place (one pin per provider place) in the list;
/// the others wait for the person. Re-importing the same file updates the
/// same list and keeps every decision; after the list was deleted, it makes
/// a new one. Rows are settled and written in chunks: a cancelled or failed
/// import keeps the chunks it finished, and running it again resumes after
/// them; a superseded attempt's late results are refused.
public struct ImportService: Sendable {
  let context: EngineContext
  let matcher: PlaceMatcher

  public init(context: EngineContext, matcher: PlaceMatcher) {
    self.context = context
    self.matcher = matcher
  }

  public struct Summary: Sendable, Equatable {
    public let list: PlaceList
    public let rows: Int
    public let matched: Int
    public let needsReview: Int
    public let unresolved: Int
    /// Rows a person had already decided, left as they were.
    public let kept: Int
    /// Duplicate rows folded into one entry.
    public let duplicates: Int
  }

  /// How an import reports progress and learns it should stop.
  public struct Control: Sendable {
    public var chunk: Int
    /// Rows settled so far, and the total, after each written chunk.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// Asked between chunks (Ctrl-C sets it).
    public var cancelled: (@Sendable () -> Bool)?

    public init(chunk: Int = 200, progress: (@Sendable (Int, Int) -> Void)? = nil, cancelled: (@Sendable () -> Bool)? = nil) {
      self.chunk = max(1, chunk)
      self.progress = progress
      self.cancelled = cancelled
    }
  }

  /// An import stopped before its last chunk; what it finished is kept.
  public struct Interrupted: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable { case cancelled, superseded }
    public let reason: Reason
    public let done: Int
    public let total: Int

    public init(reason: Reason, done: Int, total: Int) {
      self.reason = reason
      self.done = done
      self.total = total
    }

    public var description: String {
      switch reason {
      case .cancelled: return "import cancelled after \(done) of \(total) rows; run the same command again to continue"
      case .superseded: return "a newer import of the same file started; this one's remaining results were discarded"
      }
    }
  }

  static func attemptKey(_ file: String) -> String { "local.import.attempt.\(file)" }

  public func importList(_ source: TakeoutList, file: String, listName: String? = nil, control: Control = Control()) throws -> Summary {
    let attempt = UUID().uuidString
    let previousAttempt = context.store.state().settings[Self.attemptKey(file)]
    // An earlier attempt that never finished: resume after what it settled.
    let resuming = previousAttempt.map { $0 != "finished" } ?? false
    try context.store.append([.put(.setting(key: Self.attemptKey(file), value: attempt))])
    let state = context.store.state()
    let now = context.clock.now()
    let name = listName ?? source.name
    var operations: [StoreOperation] = []
    // The list this file made before, if it still exists.
    let previous = state.sourceEntries.values.filter { $0.source == file }.map(\.list)
    let list: PlaceList
    if let listName, let named = state.lists.values.first(where: { SearchText.fold($0.name) == SearchText.fold(CleanText.line(listName)) }) {
      // --list NAME names the list to fill, also when the file went elsewhere before.
      list = named
    } else if listName == nil, let existing = previous.compactMap({ state.lists[$0] }).first {
      list = existing
    } else {
      if state.lists.values.contains(where: { SearchText.fold($0.name) == SearchText.fold(name) }) {
        throw DomainError.conflict("a list named '\(name)' already exists; give --list NAME for the import")
      }
      list = try PlaceList(id: ListID(context.ids.next()), name: name, createdAt: now)
      operations.append(.put(.list(list)))
    }
    var byRef: [String: PlaceID] = [:]
    var pinned: [String: PlaceID] = [:]
    for place in state.places.values {
      if let ref = place.provider?.ref { byRef[ref] = place.id }
      if place.provider == nil, let name = place.personal.name, let coordinate = place.personal.coordinate {
        pinned[Self.pinKey(name, coordinate)] = place.id
      }
    }
    var seen = Set<String>()
    var counts = (matched: 0, review: 0, unresolved: 0, kept: 0, duplicates: 0)
    var done = 0
    /// Writes a chunk if this attempt is still the current one.
    func flush() throws {
      guard context.store.state().settings[Self.attemptKey(file)] == attempt else {
        throw Interrupted(reason: .superseded, done: done, total: source.rows.count)
      }
      try context.store.append(operations)
      operations.removeAll()
      control.progress?(done, source.rows.count)
    }
    for row in source.rows {
      if done > 0, done % control.chunk == 0 {
        try flush()
        if control.cancelled?() == true { throw Interrupted(reason: .cancelled, done: done, total: source.rows.count) }
      }
      done += 1
      let id = FNV1a.hex(FNV1a.hash64("\(file)|\(list.id)|\(row.title)|\(row.url)".utf8))
      guard seen.insert(id).inserted else {
        counts.duplicates += 1
        continue
      }
      if let existing = state.sourceEntries[id], existing.decided {
        counts.kept += 1
        continue
      }
      if resuming, let existing = state.sourceEntries[id] {
        switch existing.state {
        case .matched: counts.matched += 1
        case .candidates: counts.review += 1
        case .unresolved, .rejected: counts.unresolved += 1
        }
        continue
      }
      // Imported before and still saved: the same row is the same place, whatever matching would say now.
      if let existing = state.sourceEntries[id], case .matched(let placeID) = existing.state, state.places[placeID] != nil {
        let membership = Membership(list: list.id, place: placeID)
        if !state.memberships.contains(membership) { operations.append(.put(.membership(membership))) }
        counts.matched += 1
        continue
      }
      let title = Self.importedName(row.title)
      let match = try matcher.match(title, near: row.coordinate)
      var entry = SourceEntry(id: id, list: list.id, source: file, line: row.line, title: title, note: CleanText.paragraph(row.note), state: .unresolved)
      switch match.decision {
      case .accepted(let place):
        let placeID = byRef[place.ref] ?? PlaceID(context.ids.next())
        if byRef[place.ref] == nil {
          byRef[place.ref] = placeID
          operations.append(.put(.place(Self.place(placeID, from: place, note: row.note, now: now))))
        }
        let membership = Membership(list: list.id, place: placeID)
        if !state.memberships.contains(membership) { operations.append(.put(.membership(membership))) }
        entry.state = .matched(placeID)
        counts.matched += 1
      case .candidates where row.coordinate == nil:
        entry.state = .candidates(Self.candidates(match))
        counts.review += 1
      case .candidates, .unresolved:
        if let coordinate = row.coordinate {
          // A starred place no provider clearly knows is still where the person put it; the
          // same name at the same pin (another copy of the file) is that place again.
          let placeID: PlaceID
          if let known = pinned[Self.pinKey(title, coordinate)] {
            placeID = known
          } else {
            let place = Place(
              id: PlaceID(context.ids.next()),
              personal: PersonalPlaceData(
                name: title, coordinate: coordinate, address: row.address.map(CleanText.line), note: CleanText.paragraph(row.note)),
              createdAt: now)
            operations.append(.put(.place(place)))
            pinned[Self.pinKey(title, coordinate)] = place.id
            placeID = place.id
          }
          let membership = Membership(list: list.id, place: placeID)
          if !state.memberships.contains(membership) { operations.append(.put(.membership(membership))) }
          entry.state = .matched(placeID)
          counts.matched += 1
        } else {
          counts.unresolved += 1
        }
      }
      if state.sourceEntries[id] != entry { operations.append(.put(.sourceEntry(entry))) }
    }
    try flush()
    try context.store.append([.put(.setting(key: Self.attemptKey(file), value: "finished"))])
    return Summary(
      list: list, rows: source.rows.count, matched: counts.matched, needsReview: counts.review, unresolved: counts.unresolved,
      kept: counts.kept, duplicates: counts.duplicates)
  }

  /// A candidate's address as the provider knows it (rows keep only the
  /// ref, name and category), for telling branches of a chain apart.
  public func address(ofCandidate ref: String) -> String? {
    (try? matcher.provider.place(ref: ref))??.address
  }

  /// Entries waiting for a person, in file order.
  public func pending() -> [SourceEntry] {
    context.store.state().sourceEntries.values.filter { entry in
      switch entry.state {
      case .candidates, .unresolved: return !entry.decided
      case .matched, .rejected: return false
      }
    }.sorted { ($0.source, $0.line) < ($1.source, $1.line) }
  }

  /// Accepts candidate `number` (1-based) of an entry: the place is saved
  /// (or reused) and put in the entry's list.
  public func accept(_ entryID: String, candidate number: Int) throws -> SourceEntry {
    let state = context.store.state()
    var entry = try self.entry(entryID, in: state)
    guard case .candidates(let candidates) = entry.state, (1...candidates.count).contains(number) else {
      throw DomainError.invalidValue(field: "candidate", value: String(number), allowed: "a candidate number shown by 'import review'")
    }
    let chosen = candidates[number - 1]
    let now = context.clock.now()
    var operations: [StoreOperation] = []
    let placeID = state.places.values.first { $0.provider?.ref == chosen.ref }?.id ?? PlaceID(context.ids.next())
    if state.places[placeID] == nil {
      // The row keeps only ref, name and category; the provider still knows the address.
      let provider = ProviderPlace(
        ref: chosen.ref, name: chosen.name, coordinate: chosen.coordinate, category: chosen.category, address: address(ofCandidate: chosen.ref))
      operations.append(.put(.place(Self.place(placeID, from: provider, note: entry.note, now: now))))
    }
    operations.append(.put(.membership(Membership(list: entry.list, place: placeID))))
    entry.state = .matched(placeID)
    entry.decided = true
    operations.append(.put(.sourceEntry(entry)))
    try context.store.append(operations)
    return entry
  }

  /// Searches again with the person's words; the row gets the new candidates
  /// (a clear match is still left for the person to accept).
  public func searchAgain(_ entryID: String, query: String) throws -> SourceEntry {
    var entry = try self.entry(entryID, in: context.store.state())
    let match = try matcher.match(query)
    guard !match.candidates.isEmpty else { throw DomainError.notFound(kind: "place for the search", reference: query) }
    entry.state = .candidates(Self.candidates(match))
    try context.store.append([.put(.sourceEntry(entry))])
    return entry
  }

  /// A saved pin's identity: its folded name and its position to about a metre.
  static func pinKey(_ name: String, _ coordinate: Coordinate) -> String {
    SearchText.fold(name) + String(format: "|%.5f,%.5f", coordinate.latitude, coordinate.longitude)
  }

  /// A row's title as one clean line; a title past the limit is cut (an
  /// import keeps going) rather than refused.
  static func importedName(_ title: String) -> String {
    let line = CleanText.line(title)
    return line.count <= CleanText.nameLimit ? line : String(line.prefix(CleanText.nameLimit - 1)) + "…"
  }

  /// The person enters the place by hand: it is saved with their name and
  /// position, put in the row's list, and the row is settled.
  public func enter(_ entryID: String, name: String, at coordinate: Coordinate) throws -> SourceEntry {
    var entry = try self.entry(entryID, in: context.store.state())
    let trimmed = try CleanText.name(name, field: "place name")
    guard !trimmed.isEmpty else { throw DomainError.invalidValue(field: "place name", value: name, allowed: "a non-empty name") }
    let place = Place(
      id: PlaceID(context.ids.next()), personal: PersonalPlaceData(name: trimmed, coordinate: coordinate, note: entry.note),
      createdAt: context.clock.now())
    entry.state = .matched(place.id)
    entry.decided = true
    try context.store.append([.put(.place(place)), .put(.membership(Membership(list: entry.list, place: place.id))), .put(.sourceEntry(entry))])
    return entry
  }

  /// The person says no place fits: the row is kept, marked rejected.
  public func reject(_ entryID: String) throws -> SourceEntry {
    var entry = try self.entry(entryID, in: context.store.state())
    entry.state = .rejected
    entry.decided = true
    try context.store.append([.put(.sourceEntry(entry))])
    return entry
  }

  func entry(_ reference: String, in state: StoreState) throws -> SourceEntry {
    let matches = state.sourceEntries.values.filter { $0.id.hasPrefix(reference) }
    guard matches.count == 1, reference.count >= 3 else {
      if matches.isEmpty { throw DomainError.notFound(kind: "imported row", reference: reference) }
      throw DomainError.ambiguous(kind: "imported row", reference: reference, candidates: matches.map(\.id).sorted())
    }
    return matches[0]
  }

  /// The best three, as a row keeps them for the person.
  static func candidates(_ match: PlaceMatcher.Match) -> [SourceEntry.Candidate] {
    match.candidates.prefix(3).map {
      .init(ref: $0.place.ref, name: $0.place.name, coordinate: $0.place.coordinate, category: $0.place.category, score: $0.score)
    }
  }

  static func place(_ id: PlaceID, from provider: ProviderPlace, note: String, now: Date) -> Place {
    Place(
      id: id, personal: PersonalPlaceData(note: note),
      provider: ProviderPlaceData(
        ref: provider.ref, name: provider.name, coordinate: provider.coordinate, address: provider.address, category: provider.category,
        fetchedAt: now, expiresAt: now.addingTimeInterval(SuggestionService.providerDataLifetime), hours: provider.openingHours),
      createdAt: now)
  }
}
