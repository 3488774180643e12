import Domain
import Foundation

/// One simulated outing: the true position every second, and what was planned.
public struct Trip: Sendable {
  public enum StopKind: String, Sendable { case visit, passBy = "pass-by" }

  public let mode: StreetGraph.Mode
  public let start: Date
  public let positions: [Coordinate]
  public let plannedStops: [(place: Int, kind: StopKind)]
  /// Where the person spends the day's long stays (home, and work on a
  /// work day): the places whose Wi-Fi their phone knows and joins.
  public let stays: [Coordinate]

  public init(
    mode: StreetGraph.Mode, start: Date, positions: [Coordinate], plannedStops: [(place: Int, kind: StopKind)], stays: [Coordinate] = []
  ) {
    self.mode = mode
    self.start = start
    self.positions = positions
    self.plannedStops = plannedStops
    self.stays = stays
  }

  public var duration: TimeInterval { Double(positions.count) }

  public func time(_ second: Int) -> Date { start.addingTimeInterval(Double(second)) }
}
