import Domain
import Foundation
import Geofencing

/// The places of a benchmark person: some real ones in the street area
/// (the ones trips visit and pass) and synthetic ones over the metropolitan
/// area up to the requested count. Each is one task's only place.
public struct PlaceSet: Sendable {
  public struct Place: Sendable {
    public let id: Int
    public let name: String
    public let center: Coordinate
    public let radius: Double
    /// Inside the street area, so trips can reach it.
    public let reachable: Bool

    public init(id: Int, name: String, center: Coordinate, radius: Double, reachable: Bool) {
      self.id = id
      self.name = name
      self.center = center
      self.radius = radius
      self.reachable = reachable
    }
  }

  public let places: [Place]
  /// The task each place belongs to (by place id); one task per place
  /// unless a tasks file ties several places to one task.
  public let taskOf: [Int]
  /// Titles of tasks tied to several places (by task id), from a tasks file.
  public let taskNames: [Int: String]
  /// Circles at each place's radius, and at radius + 50 m ("near").
  public let inside: CircleIndex
  public let near: CircleIndex
  public static let nearMargin = 50.0

  public init(places: [Place], taskOf: [Int]? = nil, taskNames: [Int: String] = [:]) {
    self.places = places
    self.taskOf = taskOf ?? places.map(\.id)
    self.taskNames = taskNames
    var inside = CircleIndex()
    var near = CircleIndex()
    inside.reserveCapacity(places.count)
    near.reserveCapacity(places.count)
    for place in places {
      inside.insert(key: place.id, latitude: place.center.latitude, longitude: place.center.longitude, radius: place.radius)
      near.insert(key: place.id, latitude: place.center.latitude, longitude: place.center.longitude, radius: place.radius + Self.nearMargin)
    }
    self.inside = inside
    self.near = near
  }

  /// `count` places: up to `localCount` at real POIs (or near street nodes
  /// when none are given) inside the street area, the rest synthetic, spread
  /// evenly over a 20 km radius around it.
  public static func make(count: Int, localCount: Int = 150, pois: [(String, Coordinate)], graph: StreetGraph, random: inout SimRandom) -> PlaceSet {
    let lats = graph.nodes.map(\.latitude)
    let lons = graph.nodes.map(\.longitude)
    let box = (lats.min()!...lats.max()!, lons.min()!...lons.max()!)
    var local = pois.filter { box.0.contains($0.1.latitude) && box.1.contains($0.1.longitude) }
    if local.isEmpty {
      local = (0..<localCount).map { i in
        let node = graph.nodes[Int(random.next() % UInt64(graph.nodes.count))]
        return ("Place \(i)", node.offset(meters: random.uniform(10...40), bearing: random.uniform(0...(2 * .pi))))
      }
    }
    // A deterministic shuffle, then the first `localCount`.
    for i in stride(from: local.count - 1, to: 0, by: -1) { local.swapAt(i, Int(random.next() % UInt64(i + 1))) }
    var places: [Place] = []
    for (name, center) in local.prefix(min(localCount, count)) {
      places.append(Place(id: places.count, name: name, center: center, radius: random.uniform(40...150).rounded(), reachable: true))
    }
    let middle = graph.nodes[graph.nodes.count / 2]
    while places.count < count {
      // sqrt makes the spread uniform over the disc's area, not its radius.
      let center = middle.offset(meters: 20_000 * random.unit().squareRoot(), bearing: random.uniform(0...(2 * .pi)))
      places.append(Place(id: places.count, name: "Synthetic \(places.count)", center: center, radius: random.uniform(50...300).rounded(), reachable: false))
    }
    return PlaceSet(places: places)
  }

  /// Named points from a GeoJSON file of places (../shared/data/helsinki-pois.geojson), read by `GeoJSONPoints` as place data is.
  public static func pointsOfInterest(geojson path: String) throws -> [(String, Coordinate)] {
    guard let data = FileManager.default.contents(atPath: path) else { throw ScenarioError(source: path, message: "cannot read the file", kind: "places file") }
    let entries: [GeoJSONPoints.Entry]
    do {
      entries = try GeoJSONPoints.read(data)
    } catch {
      throw ScenarioError(source: path, message: error.message, kind: "places file")
    }
    return entries.compactMap { entry in
      guard case .point(let feature) = entry, let name = feature.properties["name"] else { return nil }
      return (name, feature.coordinate)
    }
  }
}
