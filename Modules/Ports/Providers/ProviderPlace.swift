import Domain
import Foundation

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
  /// OSM `opening_hours` as the provider gave it, when it did.
  public let openingHours: String?

  public init(
    ref: String, name: String, coordinate: Coordinate, category: String, address: String?, otherNames: [String] = [], openingHours: String? = nil
  ) {
    self.ref = ref
    self.name = name
    self.coordinate = coordinate
    self.category = category
    self.address = address
    self.otherNames = otherNames
    self.openingHours = openingHours
  }

  public var allNames: [String] { [name] + otherNames }

  /// Whether it is open at `date` (local time in `timeZone`); nil when its
  /// hours are unknown or in a form not understood.
  public func isOpen(at date: Date, in timeZone: TimeZone) -> Bool? {
    openingHours.flatMap { OpeningHours($0) }?.isOpen(at: date, in: timeZone)
  }
}
