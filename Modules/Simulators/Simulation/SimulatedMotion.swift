import Domain
import Foundation

/// The phone's activity history as the motion coprocessor keeps it: still
/// or moving, each decided only after the state held for a while.
public final class SimulatedMotion {
  private let config: WorldConfig.Motion
  private var last: Coordinate?
  /// What the history says now.
  public private(set) var isStill = false
  /// Since when the true motion has differed from what the history says.
  private var differingSince: Int?

  public init(config: WorldConfig.Motion) {
    self.config = config
  }

  /// One second at `position`; returns the new state when the history changed.
  public func step(second: Int, position: Coordinate) -> Bool? {
    defer { last = position }
    let stillNow = last.map { $0.distance(to: position) < config.stillSpeed } ?? false
    guard stillNow != isStill else {
      differingSince = nil
      return nil
    }
    let since = differingSince ?? second
    differingSince = since
    guard Double(second - since) >= (stillNow ? config.stillAfter : config.movingAfter) else { return nil }
    isStill = stillNow
    differingSince = nil
    return isStill
  }
}
