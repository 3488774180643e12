import Domain
import Foundation
import Geofencing

/// What most apps do (`os-nearest-20`): the nearest places as plain OS
/// regions, replanned on significant change; a region entry fires. With
/// `bubble` (`bubble-19`, the commercial SDKs' approach) one slot holds a
/// 100 m region around the person whose exit wakes the app to replan.
public struct NearestRegionsStrategy: DetectionStrategy {
  public let name: String
  let count: Int
  let bubble: Double?

  public static let osNearest = NearestRegionsStrategy(name: "os-nearest-20", count: 20, bubble: nil)
  public static let bubble19 = NearestRegionsStrategy(name: "bubble-19", count: 19, bubble: 100)

  public func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom) -> StrategyRun {
    var random = random
    let phone = SimulatedPhone(world: world, duration: trip.positions.count, random: random.fork(10))
    var result = StrategyRun()
    var visits = VisitTracker()
    var bubbleCount = 0
    func replan(from point: Coordinate) {
      result.replans += 1
      var regions = places.inside.nearest(latitude: point.latitude, longitude: point.longitude, k: count).map { hit -> PlannedRegion in
        let place = places.places[hit.key]
        return PlannedRegion(id: "p\(place.id)", kind: .arrival, center: place.center, radius: place.radius, destinations: [Self.destination(place)])
      }
      if let bubble {
        bubbleCount += 1
        regions.append(PlannedRegion(id: "bubble:\(bubbleCount)", kind: .approach, center: point, radius: bubble, destinations: []))
      }
      let (add, remove) = CoveragePlan(origin: point, regions: regions, leftOut: 0).changes(from: phone.monitor.monitoredRegions())
      remove.forEach(phone.monitor.stopMonitoring)
      for region in add {
        do { try phone.monitor.startMonitoring(region) } catch { result.regionFailures += 1 }
      }
    }
    phone.location.startSignificantChanges()
    for (second, position) in trip.positions.enumerated() {
      let now = trip.time(second)
      if let fix = phone.location.significantChange(position: position, at: now) { replan(from: fix.point) }
      if let fix = phone.location.preciseFix(position: position, at: now) { replan(from: fix.point) }
      for event in phone.monitor.step(position: position, at: now) {
        if event.id.hasPrefix("bubble:") {
          guard event.kind == .exited else { continue }
          // Woken by the exit, the app asks for a quick fix (a few seconds of GPS).
          phone.location.requestSingleFix()
          continue
        }
        guard let place = Int(event.id.dropFirst()) else { continue }
        let destination = Self.destination(places.places[place])
        switch event.kind {
        case .entered, .inside: if visits.arrive(destination, at: now) { result.fires.append((second, place)) }
        case .exited: visits.left(destination)
        case .outside: break
        }
      }
    }
    phone.record(into: &result)
    return result
  }

  static func destination(_ place: PlaceSet.Place) -> Destination {
    Destination(task: TaskID(String(place.id)), location: LocationID("l1"), center: place.center, radius: place.radius, priority: 1)
  }
}
