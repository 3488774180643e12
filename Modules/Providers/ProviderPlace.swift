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
  /// Other names (OSM `name:en`, `name:fi`, `alt_name`, …): an import may
  /// use any of them ("Helsinki Cathedral" for "Helsingin tuomiokirkko").
  public let otherNames: [String]

  public init(ref: String, name: String, coordinate: Coordinate, category: String, address: String?, otherNames: [String] = []) {
    self.ref = ref
    self.name = name
    self.coordinate = coordinate
    self.category = category
    self.address = address
    self.otherNames = otherNames
  }

  public var allNames: [String] { [name] + otherNames }
}
