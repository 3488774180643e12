import Domain
import Foundation

/// A saved place as `--json` prints it (and the daemon's
/// `/api/v1/places?form=summary`): its own and its provider's data merged.
public struct PlaceView: Encodable, Sendable {
  public let id: String
  public let name: String
  public let lat: Double?
  public let lon: Double?
  public let address: String?
  public let tags: [String]
  public let note: String
  public let lists: [String]?
  public let distance: Double?
  public let provider: String?
  /// Whether the provider's cached data has passed its expiry (it is still
  /// shown until refreshed; the person's own data never expires).
  public let providerExpired: Bool?
  /// The provider's OpenStreetMap `opening_hours`, when it gave them.
  public let hours: String?

  public init(_ place: Place, lists: [String]? = nil, distance: Double? = nil, now: Date = Date()) {
    id = place.id.rawValue
    name = place.name
    lat = place.coordinate?.latitude
    lon = place.coordinate?.longitude
    address = place.address
    tags = place.personal.tags
    note = place.personal.note
    self.lists = lists
    self.distance = distance
    provider = place.provider?.ref
    providerExpired = place.provider.map { $0.isExpired(at: now) }
    hours = place.provider?.hours
  }
}
