import Domain
import Foundation
import Persistence

/// What every use case needs: the store, the time, a source of ids and the
/// person's radius limits. Built by Composition, shared by the services.
public struct EngineContext: Sendable {
  public let store: any OperationStore
  public let clock: any WallClock
  public let ids: any IDGenerator
  public let radii: RadiusPolicy
  /// Local time: opening hours are read in it.
  public let timeZone: TimeZone

  public init(
    store: any OperationStore, clock: any WallClock, ids: any IDGenerator, radii: RadiusPolicy = .standard,
    timeZone: TimeZone = .current
  ) {
    self.store = store
    self.clock = clock
    self.ids = ids
    self.radii = radii
    self.timeZone = timeZone
  }
}
