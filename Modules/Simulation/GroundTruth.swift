import Domain
import Foundation

/// What really happened on a trip: every visit to a place (a stretch within
/// radius + 50 m) with enough time inside its radius to count (a visit
/// ≥ 2 min, a pass-by ≥ 20 s), and the near stretch a reminder may match.
public struct GroundTruth: Sendable {
  public struct Episode: Sendable {
    public let place: Int
    public let kind: Trip.StopKind
    /// Seconds from the trip's start.
    public let enter: Int
    public let leave: Int
    public let nearStart: Int
    public let nearEnd: Int
  }

  public let episodes: [Episode]
  /// Every stretch within radius + 50 m of each place, episode or not.
  public let nearStretches: [Int: [(start: Int, end: Int)]]

  public init(trip: Trip, places: PlaceSet, visitSeconds: Int = 120, passBySeconds: Int = 20) {
    var insideSince: [Int: Int] = [:]
    var nearSince: [Int: Int] = [:]
    var stretches: [(place: Int, enter: Int, leave: Int)] = []
    var nearStretches: [Int: [(Int, Int)]] = [:]
    for (second, point) in trip.positions.enumerated() {
      var nowInside = Set<Int>()
      places.inside.forEachContaining(latitude: point.latitude, longitude: point.longitude) { nowInside.insert($0) }
      var nowNear = Set<Int>()
      places.near.forEachContaining(latitude: point.latitude, longitude: point.longitude) { nowNear.insert($0) }
      for place in nowInside where insideSince[place] == nil { insideSince[place] = second }
      for (place, since) in insideSince where !nowInside.contains(place) {
        stretches.append((place, since, second))
        insideSince[place] = nil
      }
      for place in nowNear where nearSince[place] == nil { nearSince[place] = second }
      for (place, since) in nearSince where !nowNear.contains(place) {
        nearStretches[place, default: []].append((since, second))
        nearSince[place] = nil
      }
    }
    let end = trip.positions.count
    for (place, since) in insideSince { stretches.append((place, since, end)) }
    for (place, since) in nearSince { nearStretches[place, default: []].append((since, end)) }
    self.nearStretches = nearStretches.mapValues { $0.map { (start: $0.0, end: $0.1) } }
    // Stretches inside the radius within one stretch near it (radius + 50 m)
    // are one visit: stepping out over the boundary and back is not leaving.
    var grouped: [String: (place: Int, enter: Int, leave: Int, inside: Int, near: (Int, Int))] = [:]
    for stretch in stretches {
      let near = nearStretches[stretch.place]?.first { $0.0 <= stretch.enter && $0.1 >= stretch.leave } ?? (stretch.enter, stretch.leave)
      let key = "\(stretch.place)/\(near.0)"
      if var group = grouped[key] {
        group.enter = min(group.enter, stretch.enter)
        group.leave = max(group.leave, stretch.leave)
        group.inside += stretch.leave - stretch.enter
        grouped[key] = group
      } else {
        grouped[key] = (stretch.place, stretch.enter, stretch.leave, stretch.leave - stretch.enter, near)
      }
    }
    episodes = grouped.values.compactMap { group in
      guard group.inside >= passBySeconds else { return nil }
      return Episode(
        place: group.place, kind: group.inside >= visitSeconds ? .visit : .passBy, enter: group.enter, leave: group.leave,
        nearStart: group.near.0, nearEnd: group.near.1)
    }.sorted { ($0.enter, $0.place) < ($1.enter, $1.place) }
  }
}
