import Domain
import Foundation

/// Makes trips over the streets: a mode, then stops at reachable places,
/// each a visit (walk in, stay 2–20 min, walk out) or a pass-by (walk past
/// close to it without stopping), with traffic-light stops when cycling or
/// driving.
public struct TripGenerator {
  let graph: StreetGraph
  let places: PlaceSet
  let people: WorldConfig.People

  public init(graph: StreetGraph, places: PlaceSet, people: WorldConfig.People) {
    self.graph = graph
    self.places = places
    self.people = people
  }

  public func trip(start: Date, random: inout SimRandom) -> Trip {
    let roll = random.unit()
    let mode: StreetGraph.Mode =
      roll < people.walkingShare ? .walking : roll < people.walkingShare + people.cyclingShare ? .cycling : .driving
    let speed = mode == .walking ? people.walking : mode == .cycling ? people.cycling : people.driving
    let reachable = places.places.filter(\.reachable)
    var path = PathBuilder()
    var node = graph.nearestNode(to: graph.nodes[Int(random.next() % UInt64(graph.nodes.count))], mode: mode)
    path.add(graph.nodes[node], pause: 0)
    var stops: [(Int, Trip.StopKind)] = []
    let count = people.stopsMin + Int(random.next() % UInt64(max(1, people.stopsMax - people.stopsMin + 1)))
    for _ in 0..<count where !reachable.isEmpty {
      let place = reachable[Int(random.next() % UInt64(reachable.count))]
      let target = graph.nearestNode(to: place.center, mode: mode)
      if let route = graph.route(from: node, to: target, mode: mode) {
        var sinceLight = 0.0
        for step in route.dropFirst() {
          let from = path.last!
          let to = graph.nodes[step]
          sinceLight += from.distance(to: to)
          var pause = 0.0
          if mode != .walking, sinceLight > 1000 / people.lightsPerKm {
            sinceLight = 0
            if random.chance(0.5) { pause = people.lightStop * random.uniform(0.5...1.5) }
          }
          path.move(to: to, speed: speed, pause: pause)
        }
        node = target
      }
      let kind: Trip.StopKind = random.chance(people.passByShare) ? .passBy : .visit
      stops.append((place.id, kind))
      let streetPoint = graph.nodes[node]
      switch kind {
      case .visit:
        let spot = place.center.offset(meters: random.uniform(0...(place.radius * 0.4)), bearing: random.uniform(0...(2 * .pi)))
        path.move(to: spot, speed: people.walking, pause: random.uniform(people.visitMin...people.visitMax))
        path.move(to: streetPoint, speed: people.walking, pause: 0)
      case .passBy:
        // Walk by within half the radius and carry on without stopping.
        let bearing = random.uniform(0...(2 * .pi))
        let near = place.center.offset(meters: place.radius * 0.5, bearing: bearing)
        let beyond = place.center.offset(meters: place.radius * 1.8, bearing: bearing + .pi * 0.8)
        path.move(to: near, speed: people.walking, pause: 0)
        path.move(to: beyond, speed: people.walking, pause: 0)
        path.move(to: streetPoint, speed: people.walking, pause: 0)
      }
    }
    return Trip(mode: mode, start: start, positions: path.samples(), plannedStops: stops)
  }
}

/// Straight legs at a speed, with pauses, sampled once a second.
struct PathBuilder {
  private var legs: [(to: Coordinate, speed: Double, pause: Double)] = []
  private(set) var last: Coordinate?
  private var origin: Coordinate?

  mutating func add(_ point: Coordinate, pause: Double) {
    if origin == nil { origin = point }
    last = point
  }

  mutating func move(to point: Coordinate, speed: Double, pause: Double) {
    legs.append((point, speed, pause))
    last = point
  }

  func samples() -> [Coordinate] {
    guard var here = origin else { return [] }
    var result: [Coordinate] = [here]
    var carry = 0.0
    for leg in legs {
      let length = here.distance(to: leg.to)
      let seconds = length / leg.speed
      var t = 1 - carry
      while t <= seconds {
        let f = seconds > 0 ? t / seconds : 1
        result.append((try? Coordinate(latitude: here.latitude + (leg.to.latitude - here.latitude) * f, longitude: here.longitude + (leg.to.longitude - here.longitude) * f)) ?? here)
        t += 1
      }
      carry = seconds - (t - 1)
      here = leg.to
      for _ in 0..<Int(leg.pause.rounded()) { result.append(here) }
    }
    return result
  }
}
