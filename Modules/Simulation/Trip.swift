import Domain
import Foundation

/// One simulated outing: the true position every second, and what was planned.
public struct Trip: Sendable {
  public enum StopKind: String, Sendable { case visit, passBy = "pass-by" }

  public let mode: StreetGraph.Mode
  public let start: Date
  public let positions: [Coordinate]
  public let plannedStops: [(place: Int, kind: StopKind)]

  public init(mode: StreetGraph.Mode, start: Date, positions: [Coordinate], plannedStops: [(place: Int, kind: StopKind)]) {
    self.mode = mode
    self.start = start
    self.positions = positions
    self.plannedStops = plannedStops
  }

  public var duration: TimeInterval { Double(positions.count) }

  public func time(_ second: Int) -> Date { start.addingTimeInterval(Double(second)) }
}
