import Domain
import Foundation
import Locking

/// A short memory in front of a slow provider (Overpass): a `nearby` answer
/// is fetched for a wider circle than asked and kept for a while, so a
/// person who moved a little, or asks with a smaller radius or a subset of
/// the categories, is answered from it, with the current radius, filter and
/// order applied again. Searches and lookups go straight through: asking
/// another provider is always a deliberate choice.
public final class CachingPlaceProvider: PlaceProvider, Sendable {
  public let inner: any PlaceProvider
  public var name: String { inner.name }
  public var count: Int? { inner.count }
  /// How much wider than asked a fetch reaches, and how long it is kept.
  public let reach: Double
  public let lifetime: TimeInterval
  let clock: @Sendable () -> Date
  private let cache = Locked(Cache())
  /// How many questions reached the provider (for tests and doctor).
  public var fetches: Int { cache.withLock { $0.fetches } }

  private struct Cache {
    var entries: [Entry] = []
    var fetches = 0
  }

  struct Entry {
    let center: Coordinate
    let radius: Double
    /// Empty: every category.
    let categories: Set<String>
    let limit: Int
    let places: [ProviderPlace]
    let at: Date
  }

  public init(_ inner: any PlaceProvider, reach: Double = 1_000, lifetime: TimeInterval = 300, clock: @escaping @Sendable () -> Date = { Date() }) {
    self.inner = inner
    self.reach = reach
    self.lifetime = lifetime
    self.clock = clock
  }

  public func nearby(_ point: Coordinate, radius: Double, categories: Set<String>, limit: Int) throws -> [ProviderPlace] {
    let now = clock()
    let lifetime = lifetime
    let cached: Entry? = cache.withLock { cache in
      cache.entries.removeAll { now.timeIntervalSince($0.at) > lifetime }
      return cache.entries.first { entry in
        // The asked circle lies inside the fetched one, the categories are
        // covered, and the fetch was not cut short by its limit.
        entry.center.distance(to: point) + radius <= entry.radius
          && (entry.categories.isEmpty || (!categories.isEmpty && categories.isSubset(of: entry.categories)))
          && entry.places.count < entry.limit
      }
    }
    let places: [ProviderPlace]
    if let cached {
      places = cached.places
    } else {
      let wider = radius + reach
      let fetchLimit = max(limit * 4, 200)
      places = try inner.nearby(point, radius: wider, categories: categories, limit: fetchLimit)
      cache.withLock { cache in
        cache.fetches += 1
        cache.entries.append(Entry(center: point, radius: wider, categories: categories, limit: fetchLimit, places: places, at: now))
        if cache.entries.count > 32 { cache.entries.removeFirst() }
      }
    }
    return Array(
      places.filter { $0.coordinate.distance(to: point) <= radius && (categories.isEmpty || categories.contains($0.category)) }
        .sorted { ($0.coordinate.distance(to: point), $0.ref) < ($1.coordinate.distance(to: point), $1.ref) }
        .prefix(limit))
  }

  public func search(_ text: String, near: Coordinate?, limit: Int) throws -> [ProviderPlace] {
    try inner.search(text, near: near, limit: limit)
  }

  public func place(ref: String) throws -> ProviderPlace? { try inner.place(ref: ref) }
}
