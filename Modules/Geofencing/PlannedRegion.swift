import Domain

/// A region to hand to the OS: an arrival region (one destination, its own
/// radius: entering it is an arrival) or an approach zone (several nearby
/// destinations: entering it starts a precise session to confirm arrival).
public struct PlannedRegion: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable, Codable {
    case arrival, approach
    /// The coverage edge: leaving it means the plan is out of date.
    case edge
  }

  public let id: String
  public let kind: Kind
  public let center: Coordinate
  public let radius: Double
  /// The destinations it covers (one for an arrival region).
  public let destinations: [Destination]

  public init(id: String, kind: Kind, center: Coordinate, radius: Double, destinations: [Destination]) {
    self.id = id
    self.kind = kind
    self.center = center
    self.radius = radius
    self.destinations = destinations
  }
}
