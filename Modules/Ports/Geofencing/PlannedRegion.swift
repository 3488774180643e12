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
  /// Which crossings the OS should deliver (iOS `CLRegion.notifyOnEntry`
  /// and `notifyOnExit`): each delivery to a suspended app wakes it, so
  /// the engine asks only for those it acts on. The OS still tracks the
  /// state across a crossing it does not deliver. A monitor that cannot
  /// hold a crossing back (an OwnTracks phone) delivers it anyway.
  public let notifyOnEntry: Bool
  public let notifyOnExit: Bool

  public init(
    id: String, kind: Kind, center: Coordinate, radius: Double, destinations: [Destination], notifyOnEntry: Bool = true,
    notifyOnExit: Bool = true
  ) {
    self.id = id
    self.kind = kind
    self.center = center
    self.radius = radius
    self.destinations = destinations
    self.notifyOnEntry = notifyOnEntry
    self.notifyOnExit = notifyOnExit
  }

  /// The same region delivering only the crossings given.
  public func notifying(entry: Bool, exit: Bool) -> PlannedRegion {
    PlannedRegion(id: id, kind: kind, center: center, radius: radius, destinations: destinations, notifyOnEntry: entry, notifyOnExit: exit)
  }
}
