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
