import Foundation

/// A saved place. What the person said about it (`personal`) is kept apart
/// from what a provider said (`provider`): provider data may expire and be
/// refetched, the person's name, tags, note and the place's memberships never do.
public struct Place: Hashable, Codable, Sendable {
  public let id: PlaceID
  public var personal: PersonalPlaceData
  public var provider: ProviderPlaceData?
  public let createdAt: Date

  public init(id: PlaceID, personal: PersonalPlaceData, provider: ProviderPlaceData? = nil, createdAt: Date) {
    self.id = id
    self.personal = personal
    self.provider = provider
    self.createdAt = createdAt
  }

  /// The person's own name wins over the provider's.
  public var name: String { personal.name ?? provider?.name ?? "(unnamed)" }

  /// The person's correction wins; provider coordinates are used even past
  /// expiry, since a stale pin is better than none until it is refreshed.
  public var coordinate: Coordinate? { personal.coordinate ?? provider?.coordinate }

  public var address: String? { personal.address ?? provider?.address }
}
