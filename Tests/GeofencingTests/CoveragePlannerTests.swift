import Domain
import Foundation
import Geofencing
import Testing

@Suite struct CoveragePlannerTests {
  static let origin = try! Coordinate(latitude: 60.17, longitude: 24.94)

  /// A destination `meters` north of the origin.
  static func destination(_ task: String, north meters: Double, east: Double = 0, radius: Double = 100, priority: Int = 1) -> Destination {
    let lat = origin.latitude + meters / 111_195
    let lon = origin.longitude + east / (111_195 * cos(origin.latitude * .pi / 180))
    return Destination(task: TaskID(task), location: LocationID("l\(priority)"), center: try! Coordinate(latitude: lat, longitude: lon), radius: radius, priority: priority)
  }

  @Test func picksAtMostSevenNearestEachWithItsOwnArrivalRegion() {
    let candidates = (0..<20).map { Self.destination("t\($0)", north: Double($0) * 1000 + 500) }
    let plan = CoveragePlanner(config: .designCard).plan(from: Self.origin, candidates: candidates)
    let arrivals = plan.regions.filter { $0.kind == .arrival }
    #expect(arrivals.map { $0.destinations[0].task.rawValue } == (0..<7).map { "t\($0)" })
    #expect(arrivals.allSatisfy { $0.radius == 100 && $0.id.hasPrefix("wh:") })
    #expect(plan.leftOut == 13)
    #expect(plan.regions.count <= 14, "the design card's bound: 7 arrival regions and at most 7 zones")
  }

  /// The shipped numbers with the design card's 7 destinations, so the
  /// rules read against the card.
  static var seven: CoverageConfig {
    var config = CoverageConfig()
    config.maxDestinations = 7
    return config
  }

  @Test func theEdgeRegionStopsShortOfTheNearestLeftOutDestination() throws {
    let candidates = (0..<20).map { Self.destination("t\($0)", north: Double($0) * 1000 + 500) }
    let plan = CoveragePlanner(config: Self.seven).plan(from: Self.origin, candidates: candidates)
    #expect(plan.regions.count <= 15)
    let edge = try #require(plan.regions.first { $0.kind == .edge })
    #expect(edge.center == Self.origin)
    // t7 (the nearest left out) is 7.5 km away: the edge reaches half way to its approach.
    let nearestLeftOut = candidates[7]
    #expect(edge.radius < Self.origin.distance(to: nearestLeftOut.center) - nearestLeftOut.radius - 300)
    #expect(edge.radius >= 100)
    let few = CoveragePlanner(config: Self.seven).plan(from: Self.origin, candidates: Array(candidates.prefix(3)))
    #expect(few.regions.allSatisfy { $0.kind != .edge }, "nothing left out: no edge needed")
  }

  @Test func nearbyDestinationsShareOneApproachZone() {
    let a = Self.destination("a", north: 1000)
    let b = Self.destination("b", north: 1200)
    let far = Self.destination("c", north: 5000)
    let plan = CoveragePlanner().plan(from: Self.origin, candidates: [a, b, far])
    let zones = plan.regions.filter { $0.kind == .approach }
    #expect(zones.count == 2)
    let shared = zones.first { $0.destinations.count == 2 }
    #expect(Set(shared?.destinations.map(\.task.rawValue) ?? []) == ["a", "b"])
    // The zone reaches past both members by the approach margin.
    for member in [a, b] {
      #expect(shared!.center.distance(to: member.center) + member.radius + 299 <= shared!.radius)
    }
  }

  @Test func lowerPriorityCountsAsFarther() {
    let preferred = Self.destination("t", north: 1100, priority: 1)
    let fallback = Self.destination("u", north: 1000, priority: 3)
    var config = CoverageConfig()
    config.maxDestinations = 1
    let plan = CoveragePlanner(config: config).plan(from: Self.origin, candidates: [fallback, preferred])
    #expect(plan.destinations.map(\.task.rawValue) == ["t"])
  }

  @Test(arguments: [0, 3, 10, 13, 14, 20])
  func neverExceedsTheFreeCapacity(free: Int) {
    let candidates = (0..<10).map { Self.destination("t\($0)", north: Double($0) * 2000 + 500) }
    for config in [Self.seven, CoverageConfig()] {
      let plan = CoveragePlanner(config: config).plan(from: Self.origin, candidates: candidates, freeCapacity: free)
      #expect(plan.regions.count <= free)
      if free == 0 { #expect(plan.regions.isEmpty && plan.note?.contains("no region capacity") == true) }
      if free >= 2 * config.maxDestinations + 1 { #expect(plan.destinations.count == min(config.maxDestinations, candidates.count)) }
    }
  }

  @Test func installsOnlyTheDifference() {
    let planner = CoveragePlanner()
    let first = planner.plan(from: Self.origin, candidates: (0..<3).map { Self.destination("t\($0)", north: Double($0) * 2000 + 500) })
    let second = planner.plan(from: Self.origin, candidates: (0..<4).map { Self.destination("t\($0)", north: Double($0) * 2000 + 500) })
    let (add, remove) = second.changes(from: Set(first.regions.map(\.id)))
    #expect(remove.isEmpty)
    #expect(add.count == 2 && add.contains { $0.kind == .arrival && $0.destinations[0].task.rawValue == "t3" })
  }

  @Test func regionIdsAreDeterministicAndMapBack() {
    let candidates = [Self.destination("t1", north: 500)]
    let a = CoveragePlanner().plan(from: Self.origin, candidates: candidates)
    let b = CoveragePlanner().plan(from: Self.origin, candidates: candidates)
    #expect(a.regions.map(\.id) == b.regions.map(\.id))
    let parsed = RegionID(parsing: a.regions[0].id)
    #expect(parsed?.task == TaskID("t1") && parsed?.location == LocationID("l1"))
  }

  @Test func approachZonesAcrossTheAntimeridianAreCentredBetweenMembers() throws {
    let west = Destination(task: TaskID("w"), location: LocationID("l1"), center: try Coordinate(latitude: -16.5, longitude: 179.999), radius: 50, priority: 1)
    let east = Destination(task: TaskID("e"), location: LocationID("l1"), center: try Coordinate(latitude: -16.5, longitude: -179.999), radius: 50, priority: 1)
    let plan = CoveragePlanner().plan(from: try Coordinate(latitude: -16.5, longitude: 180), candidates: [west, east])
    let zone = try #require(plan.regions.first { $0.kind == .approach })
    #expect(zone.destinations.count == 2)
    #expect(abs(abs(zone.center.longitude) - 180) < 0.001)
    #expect(zone.radius < 1000)
  }
}
