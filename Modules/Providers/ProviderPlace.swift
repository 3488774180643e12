import Domain

/// A place as a provider describes it (OpenStreetMap, Overpass…).
public struct ProviderPlace: Hashable, Sendable, Codable {
  /// Stable reference, e.g. `osm:node/56431331`.
  public let ref: String
  public let name: String
  public let coordinate: Coordinate
  /// `key=value`, e.g. `shop=supermarket`.
  public let category: String
  public let address: String?

  public init(ref: String, name: String, coordinate: Coordinate, category: String, address: String?) {
    self.ref = ref
    self.name = name
    self.coordinate = coordinate
    self.category = category
    self.address = address
  }
}
