import Foundation

/// What a place provider said (e.g. `osm:node/123`). Cached with an expiry so
/// it is refreshed rather than kept forever.
public struct ProviderPlaceData: Hashable, Codable, Sendable {
  public var ref: String
  public var name: String?
  public var coordinate: Coordinate
  public var address: String?
  public var category: String?
  public var fetchedAt: Date
  public var expiresAt: Date
  /// OpenStreetMap `opening_hours` as the provider gave it, when it did.
  public var hours: String?

  public init(
    ref: String, name: String?, coordinate: Coordinate, address: String?, category: String?,
    fetchedAt: Date, expiresAt: Date, hours: String? = nil
  ) {
    self.ref = ref
    self.name = name
    self.coordinate = coordinate
    self.address = address
    self.category = category
    self.fetchedAt = fetchedAt
    self.expiresAt = expiresAt
    self.hours = hours
  }

  public func isExpired(at now: Date) -> Bool { now >= expiresAt }
}
