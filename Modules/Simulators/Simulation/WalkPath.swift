import Domain
import Foundation

/// Positions along a walk at fixed intervals: straight segments between
/// waypoints at constant speed, standing still for each pause.
public struct WalkPath: Sendable {
  public struct Sample: Sendable, Equatable {
    public let elapsed: TimeInterval
    public let position: Coordinate
    /// The label of the waypoint being paused at, if any.
    public let pausedAt: String?
  }

  public let samples: [Sample]

  /// Positions every `interval` seconds (the simulated phone steps each second).
  public init(_ walk: Scenario.Walk, interval: Double = 1) throws {
    guard walk.speed > 0, walk.speed.isFinite, interval > 0, interval.isFinite else {
      throw ScenarioError(source: "walk", message: "speed must be positive")
    }
    let points = try walk.waypoints.map { try Coordinate(latitude: $0.lat, longitude: $0.lon) }
    guard !points.isEmpty else { throw ScenarioError(source: "walk", message: "needs at least one waypoint") }
    var samples: [Sample] = []
    var time: TimeInterval = 0
    var nextSample: TimeInterval = 0
    func emit(until end: TimeInterval, position: (TimeInterval) -> Coordinate, pausedAt: String?) {
      while nextSample <= end {
        samples.append(Sample(elapsed: nextSample, position: position(nextSample), pausedAt: pausedAt))
        nextSample += interval
      }
    }
    for (index, point) in points.enumerated() {
      if index > 0 {
        let from = points[index - 1]
        let duration = from.distance(to: point) / walk.speed
        let start = time
        emit(until: start + duration, position: { t in Self.interpolate(from, point, duration == 0 ? 1 : (t - start) / duration) }, pausedAt: nil)
        time += duration
      }
      let pause = max(0, walk.waypoints[index].pause ?? 0)
      emit(until: time + pause, position: { _ in point }, pausedAt: pause > 0 ? walk.waypoints[index].label ?? "stop" : nil)
      time += pause
    }
    self.samples = samples
  }

  /// Linear in latitude and longitude: exact enough over a city block.
  static func interpolate(_ a: Coordinate, _ b: Coordinate, _ fraction: Double) -> Coordinate {
    let f = min(1, max(0, fraction))
    return try! Coordinate(
      latitude: a.latitude + (b.latitude - a.latitude) * f, longitude: a.longitude + (b.longitude - a.longitude) * f)
  }
}
