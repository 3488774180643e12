import Domain
import Foundation
import Persistence
import Providers

/// Renewing the provider part of saved places. The person's part (name,
/// tags, note, corrections) and memberships are never touched; a place the
/// provider no longer has, or a provider that fails, leaves it as it was.
public struct RefreshService: Sendable {
  let context: EngineContext
  let provider: any PlaceProvider

  public init(context: EngineContext, provider: any PlaceProvider) {
    self.context = context
    self.provider = provider
  }

  public struct Outcome: Sendable, Equatable {
    public var refreshed = 0
    public var gone: [String] = []
    public var failed: [String] = []
    public var withoutProvider = 0
  }

  /// Refreshes the places given (all when empty), or only those whose data
  /// expired when `expiredOnly`.
  public func refresh(_ ids: [PlaceID] = [], expiredOnly: Bool = false) throws -> Outcome {
    let state = context.store.state()
    let now = context.clock.now()
    let chosen = ids.isEmpty ? Array(state.places.values) : ids.compactMap { state.places[$0] }
    var outcome = Outcome()
    var operations: [StoreOperation] = []
    for var place in chosen.sorted(by: { $0.id < $1.id }) {
      guard let old = place.provider else {
        outcome.withoutProvider += 1
        continue
      }
      if expiredOnly && !old.isExpired(at: now) { continue }
      do {
        guard let fresh = try provider.place(ref: old.ref) else {
          outcome.gone.append(place.name)
          continue
        }
        place.provider = ProviderPlaceData(
          ref: fresh.ref, name: fresh.name, coordinate: fresh.coordinate, address: fresh.address, category: fresh.category,
          fetchedAt: now, expiresAt: now.addingTimeInterval(SuggestionService.providerDataLifetime), hours: fresh.openingHours)
        operations.append(.put(.place(place)))
        outcome.refreshed += 1
      } catch {
        outcome.failed.append("\(place.name): \(error)")
      }
    }
    try context.store.append(operations)
    return outcome
  }
}
