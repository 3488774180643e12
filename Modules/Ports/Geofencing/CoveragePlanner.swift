import Domain
import Foundation

/// Chooses which destinations to watch from where the person is: the
/// nearest by distance (a lower task priority counts as farther), each with
/// its own arrival region, nearby ones sharing a wider approach zone; then
/// checks the plan against the monitor's free capacity, dropping the
/// farthest destinations until it fits.
public struct CoveragePlanner: Sendable {
  public let config: CoverageConfig

  public init(config: CoverageConfig = CoverageConfig()) { self.config = config }

  public func plan(from origin: Coordinate, candidates: [Destination], freeCapacity: Int? = nil) -> CoveragePlan {
    let capacity = min(freeCapacity ?? config.freeCapacity, config.freeCapacity)
    let ranked = candidates
      .map { ($0, $0.center.distance(to: origin)) }
      .filter { $0.1 <= config.searchRadius }
      .sorted { a, b in
        let sa = a.1 + Double(a.0.priority - 1) * config.priorityPenalty
        let sb = b.1 + Double(b.0.priority - 1) * config.priorityPenalty
        return sa != sb ? sa < sb : a.0.regionID.description < b.0.regionID.description
      }
      .map(\.0)
    var chosen = Array(ranked.prefix(config.maxDestinations))
    var regions = self.regions(for: chosen, origin: origin, ranked: ranked)
    while regions.count > capacity, !chosen.isEmpty {
      chosen.removeLast()
      regions = self.regions(for: chosen, origin: origin, ranked: ranked)
    }
    if regions.count > capacity { regions = [] }
    let leftOut = ranked.count - chosen.count
    var note: String?
    if capacity == 0 && !ranked.isEmpty {
      note = "no region capacity is free (\(config.osCapacity) in all, \(config.reserved) reserved)"
    } else if chosen.count < min(ranked.count, config.maxDestinations) {
      note = "capacity \(capacity) allowed only \(chosen.count) destinations"
    }
    return CoveragePlan(origin: origin, regions: regions, leftOut: leftOut, note: note)
  }

  /// Arrival regions first (nearest first), then approach zones, then the edge.
  func regions(for chosen: [Destination], origin: Coordinate, ranked: [Destination]) -> [PlannedRegion] {
    let arrivals = chosen.map {
      PlannedRegion(id: $0.regionID.description, kind: .arrival, center: $0.center, radius: $0.radius, destinations: [$0])
    }
    var regions = arrivals + clusters(chosen).map(approachZone)
    if config.edgeRegion, let edge = edge(origin: origin, leftOut: ranked.dropFirst(chosen.count)) { regions.append(edge) }
    return regions
  }

  /// A circle around the origin that stops short of the nearest left-out
  /// destination's approach, so leaving it comes before reaching one.
  func edge(origin: Coordinate, leftOut: ArraySlice<Destination>) -> PlannedRegion? {
    guard !leftOut.isEmpty else { return nil }
    let clearance = leftOut.map { origin.distance(to: $0.center) - $0.radius - config.approachMargin }.min() ?? 0
    let radius = max(config.minimumEdgeRadius, clearance / 2)
    let key = "\(Int((origin.latitude * 1e5).rounded()))/\(Int((origin.longitude * 1e5).rounded()))/\(Int(radius))"
    return PlannedRegion(id: "wh-edge:" + Self.fingerprint(key), kind: .edge, center: origin, radius: radius, destinations: [])
  }

  /// Greedy clustering in rank order: a destination joins the first cluster
  /// whose seed is within `shareApproachWithin`.
  func clusters(_ chosen: [Destination]) -> [[Destination]] {
    var clusters: [[Destination]] = []
    for destination in chosen {
      if let index = clusters.firstIndex(where: { $0[0].center.distance(to: destination.center) <= config.shareApproachWithin }) {
        clusters[index].append(destination)
      } else {
        clusters.append([destination])
      }
    }
    return clusters
  }

  func approachZone(_ members: [Destination]) -> PlannedRegion {
    let latitude = members.map(\.center.latitude).reduce(0, +) / Double(members.count)
    // Members are within a few hundred metres, so a plain mean of longitudes
    // is right except across the antimeridian, where they are unwrapped first.
    let reference = members[0].center.longitude
    let unwrapped = members.map { m -> Double in
      var lon = m.center.longitude
      if lon - reference > 180 { lon -= 360 }
      if reference - lon > 180 { lon += 360 }
      return lon
    }
    var longitude = unwrapped.reduce(0, +) / Double(members.count)
    if longitude > 180 { longitude -= 360 }
    if longitude < -180 { longitude += 360 }
    let center = (try? Coordinate(latitude: latitude, longitude: longitude)) ?? members[0].center
    let reach = members.map { center.distance(to: $0.center) + $0.radius }.max() ?? 0
    let radius = max(config.minimumApproachRadius, reach + config.approachMargin)
    let key = members.map(\.regionID.description).sorted().joined(separator: "|")
    return PlannedRegion(
      id: "wh-zone:" + Self.fingerprint(key), kind: .approach, center: center, radius: radius, destinations: members)
  }

  static func fingerprint(_ text: String) -> String { FNV1a.hex(FNV1a.hash64(text.utf8)) }

}
