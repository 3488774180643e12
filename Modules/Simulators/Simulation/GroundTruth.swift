import Domain
import Foundation

/// What really happened on a person-day, task by task, read plainly off the
/// true positions: an inside interval of a task runs from the first second
/// inside the radius of any of its places to the last, runs less than 60 s
/// apart being one interval; an interval of ≥ 2 min is a visit, of ≥ 20 s a
/// pass-by, anything shorter neither. Also every stretch within radius
/// + 50 m of a task's places, to judge false alarms.
public struct GroundTruth: Sendable {
  public struct Episode: Sendable {
    public let task: Int
    public let kind: Trip.StopKind
    /// Seconds from the day's start: the first and the last second inside.
    public let enter: Int
    public let leave: Int
  }

  public let episodes: [Episode]
  /// Per task, the stretches within radius + 50 m of any of its places.
  public let nearStretches: [Int: [(start: Int, end: Int)]]

  /// Runs inside closer together than this are one interval.
  public static let mergeGap = 60
  public static let visitSeconds = 120
  public static let passBySeconds = 20

  public init(trip: Trip, places: PlaceSet) {
    var runs: [Int: [(start: Int, end: Int)]] = [:]
    var near: [Int: [(start: Int, end: Int)]] = [:]
    var insideNow = Set<Int>()
    var nearNow = Set<Int>()
    var previous: Coordinate?
    for (second, point) in trip.positions.enumerated() {
      // A person standing still is where they were: the same tasks hold them.
      if point != previous {
        insideNow.removeAll(keepingCapacity: true)
        places.inside.forEachContaining(latitude: point.latitude, longitude: point.longitude) { insideNow.insert(places.taskOf[$0]) }
        nearNow.removeAll(keepingCapacity: true)
        places.near.forEachContaining(latitude: point.latitude, longitude: point.longitude) { nearNow.insert(places.taskOf[$0]) }
        previous = point
      }
      Self.extend(&runs, with: insideNow, at: second)
      Self.extend(&near, with: nearNow, at: second)
    }
    nearStretches = near
    var episodes: [Episode] = []
    for (task, taskRuns) in runs {
      var merged: [(start: Int, end: Int)] = []
      for run in taskRuns {
        if let last = merged.last, run.start - last.end < Self.mergeGap {
          merged[merged.count - 1].end = run.end
        } else {
          merged.append(run)
        }
      }
      for interval in merged {
        let length = interval.end - interval.start
        guard length >= Self.passBySeconds else { continue }
        episodes.append(Episode(task: task, kind: length >= Self.visitSeconds ? .visit : .passBy, enter: interval.start, leave: interval.end))
      }
    }
    self.episodes = episodes.sorted { ($0.enter, $0.task) < ($1.enter, $1.task) }
  }

  /// Adds `second` to each task's current run, or starts a run. A run's
  /// `end` is its last second.
  private static func extend(_ runs: inout [Int: [(start: Int, end: Int)]], with tasks: Set<Int>, at second: Int) {
    for task in tasks {
      if let last = runs[task]?.last, last.end == second - 1 {
        runs[task]![runs[task]!.count - 1].end = second
      } else {
        runs[task, default: []].append((second, second))
      }
    }
  }

  /// Whether the person was within radius + 50 m of a place of `task` at
  /// some second in `from...to`.
  public func wasNear(task: Int, from: Int, to: Int) -> Bool {
    (nearStretches[task] ?? []).contains { $0.start <= to && $0.end >= from }
  }
}
