import Geofencing

/// The arrival engine's numbers, gathered so configuration can replace any.
public struct ArrivalConfig: Hashable, Sendable, Codable {
  public var coverage = CoverageConfig()
  public var session = SessionConfig()
  public var follow = FollowConfig()
  /// Leaving a place by this much beyond its radius ends the visit.
  public var exitMargin = 50.0
  /// No second reminder at the same place within this many seconds.
  public var refireCooldown = 300.0

  public init() {}
}
