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

  public func suggest(_ text: String, near point: Coordinate, radius: Double = 2000, limit: Int = 10) throws -> [Suggester.Suggestion] {
    try suggester.suggest(text, near: point, radius: radius, limit: limit)
  }

  /// Without a position: suggestions near the person's saved places (up to
  /// `anchors` of them), each ranked by its distance to the nearest saved
  /// place, which the reason names.
  public func suggestAlongSavedPlaces(_ text: String, radius: Double = 1000, limit: Int = 10, anchors: Int = 50) throws -> [Suggester.Suggestion] {
    let saved = context.store.state().places.values.compactMap { place in place.coordinate.map { (place.name, $0) } }
      .sorted { $0.0 < $1.0 }.prefix(anchors)
    var best: [String: Suggester.Suggestion] = [:]
    for (name, point) in saved {
      for suggestion in try suggester.suggest(text, near: point, radius: radius, limit: limit) where best[suggestion.place.ref].map({ suggestion.distance < $0.distance }) ?? true {
        best[suggestion.place.ref] = Suggester.Suggestion(place: suggestion.place, distance: suggestion.distance, reason: "\(suggestion.reason), near your \(name)")
      }
    }
    return Array(best.values.sorted { ($0.distance, $0.place.ref) < ($1.distance, $1.place.ref) }.prefix(limit))
  }

  /// Saves the chosen provider places (reusing saved ones with the same
  /// provider ref) and returns their ids, in the order given. One batch.
  public func save(_ chosen: [ProviderPlace]) throws -> [PlaceID] {
    let state = context.store.state()
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
          category: candidate.category, fetchedAt: now, expiresAt: now.addingTimeInterval(Self.providerDataLifetime)),
        createdAt: now)
      operations.append(.put(.place(place)))
      byRef[candidate.ref] = place.id
      ids.append(place.id)
    }
    try context.store.append(operations)
    return ids
  }
}
