import Domain
import Foundation

/// Makes a person's days over the streets. A day starts and ends at home;
/// on a work day the person commutes to work and back, with errand trips at
/// lunch and after work, and maybe one in the evening. Each errand stop is
/// a task place — a visit (walk in, stay 2–20 min, walk out) or a pass-by
/// (the route goes past it without stopping) — or a stop somewhere that
/// holds no task. Speeds are drawn per day, with traffic-light stops when
/// cycling or driving.
public struct TripGenerator {
  let graph: StreetGraph
  let places: PlaceSet
  let people: WorldConfig.People

  public init(graph: StreetGraph, places: PlaceSet, people: WorldConfig.People) {
    self.graph = graph
    self.places = places
    self.people = people
  }

  /// How one day moves: its mode and speeds.
  struct Movement {
    let mode: StreetGraph.Mode
    let speed: Double
    let walking: Double
  }

  func movement(_ random: inout SimRandom) -> Movement {
    let roll = random.unit()
    let mode: StreetGraph.Mode =
      roll < people.walkingShare ? .walking : roll < people.walkingShare + people.cyclingShare ? .cycling : .driving
    let walking = random.uniform(people.walkingMin...max(people.walkingMin, people.walkingMax))
    let speed: Double
    switch mode {
    case .walking: speed = walking
    case .cycling: speed = random.uniform(people.cyclingMin...max(people.cyclingMin, people.cyclingMax))
    case .driving: speed = random.uniform(people.drivingMin...max(people.drivingMin, people.drivingMax))
    }
    return Movement(mode: mode, speed: speed, walking: walking)
  }

  func stopCount(_ random: inout SimRandom) -> Int {
    people.stopsMin + Int(random.next() % UInt64(max(1, people.stopsMax - people.stopsMin + 1)))
  }

  func randomNode(_ random: inout SimRandom, mode: StreetGraph.Mode) -> Int {
    graph.nearestNode(to: graph.nodes[Int(random.next() % UInt64(graph.nodes.count))], mode: mode)
  }

  /// One outing: from a random street corner through the day's stops.
  public func trip(start: Date, random: inout SimRandom) -> Trip {
    let move = movement(&random)
    var path = PathBuilder()
    let node = randomNode(&random, mode: move.mode)
    path.add(graph.nodes[node])
    var stops: [(Int, Trip.StopKind)] = []
    _ = errands(from: node, count: stopCount(&random), move: move, path: &path, stops: &stops, random: &random)
    return Trip(mode: move.mode, start: start, positions: path.samples(), plannedStops: stops)
  }

  /// A whole day from midnight to midnight: the night at home, work on a
  /// work day, errands at lunch, after work and in the evening.
  public func day(start: Date, random: inout SimRandom) -> Trip {
    let move = movement(&random)
    let home = randomNode(&random, mode: move.mode)
    var path = PathBuilder()
    path.add(graph.nodes[home])
    var stops: [(Int, Trip.StopKind)] = []
    let working = random.chance(people.workDayShare)
    let lunch = working && random.chance(people.lunchTripChance)
    let evening = random.chance(people.eveningTripChance)
    // The day's stops, shared among its errand trips.
    let total = stopCount(&random)
    let trips = 1 + (lunch ? 1 : 0) + (evening ? 1 : 0)
    var shares = [Int](repeating: total / trips, count: trips)
    for i in 0..<(total % trips) { shares[i] += 1 }
    var next = shares.makeIterator()
    let leave = 3600 * random.uniform(people.leaveHomeMin...max(people.leaveHomeMin, people.leaveHomeMax))
    path.wait(until: leave)
    var here = home
    var stays = [graph.nodes[home]]
    if working {
      let work = randomNode(&random, mode: move.mode)
      stays.append(graph.nodes[work])
      here = travel(from: here, to: work, move: move, path: &path, random: &random)
      let end = path.elapsed + 3600 * people.workHours
      if lunch {
        path.wait(until: path.elapsed + 3600 * random.uniform(3...4.5))
        here = errands(from: here, count: next.next() ?? 0, move: move, path: &path, stops: &stops, random: &random)
        here = travel(from: here, to: work, move: move, path: &path, random: &random)
      }
      path.wait(until: end)
    }
    here = errands(from: here, count: next.next() ?? 0, move: move, path: &path, stops: &stops, random: &random)
    here = travel(from: here, to: home, move: move, path: &path, random: &random)
    if evening {
      path.wait(until: max(path.elapsed + 1800, 3600 * random.uniform(18...20)))
      here = errands(from: here, count: next.next() ?? 0, move: move, path: &path, stops: &stops, random: &random)
      here = travel(from: here, to: home, move: move, path: &path, random: &random)
    }
    path.wait(until: 86_400)
    return Trip(mode: move.mode, start: start, positions: path.samples(limit: 86_400), plannedStops: stops, stays: stays)
  }

  /// Goes through `count` stops from `node`; returns where it ended.
  func errands(
    from node: Int, count: Int, move: Movement, path: inout PathBuilder, stops: inout [(Int, Trip.StopKind)], random: inout SimRandom
  ) -> Int {
    let reachable = places.places.filter(\.reachable)
    var node = node
    for _ in 0..<count {
      if reachable.isEmpty || random.chance(people.otherStopShare) {
        // A stop that holds no task: somewhere else, for a while.
        node = travel(from: node, to: randomNode(&random, mode: move.mode), move: move, path: &path, random: &random)
        path.wait(until: path.elapsed + random.uniform(people.visitMin...max(people.visitMin, people.visitMax)))
        continue
      }
      let place = reachable[Int(random.next() % UInt64(reachable.count))]
      node = travel(from: node, to: graph.nearestNode(to: place.center, mode: move.mode), move: move, path: &path, random: &random)
      let kind: Trip.StopKind = random.chance(people.passByShare) ? .passBy : .visit
      stops.append((place.id, kind))
      // A pass-by is the route going past the place; a visit walks in and stays.
      guard kind == .visit else { continue }
      let streetPoint = graph.nodes[node]
      let spot = place.center.offset(meters: random.uniform(0...(place.radius * 0.4)), bearing: random.uniform(0...(2 * .pi)))
      path.move(to: spot, speed: move.walking, pause: random.uniform(people.visitMin...max(people.visitMin, people.visitMax)))
      path.move(to: streetPoint, speed: move.walking, pause: 0)
    }
    return node
  }

  /// Along the streets from one node to another, with traffic lights.
  func travel(from start: Int, to goal: Int, move: Movement, path: inout PathBuilder, random: inout SimRandom) -> Int {
    guard start != goal, let route = graph.route(from: start, to: goal, mode: move.mode) else { return start }
    var sinceLight = 0.0
    for step in route.dropFirst() {
      let from = path.last!
      let to = graph.nodes[step]
      sinceLight += from.distance(to: to)
      var pause = 0.0
      if move.mode != .walking, sinceLight > 1000 / max(people.lightsPerKm, 0.01) {
        sinceLight = 0
        if random.chance(0.5) { pause = random.uniform(people.lightStopMin...max(people.lightStopMin, people.lightStopMax)) }
      }
      path.move(to: to, speed: move.speed, pause: pause)
    }
    return goal
  }
}

/// Straight legs at a speed, with pauses, sampled once a second.
struct PathBuilder {
  private var legs: [(to: Coordinate, speed: Double, pause: Double)] = []
  private(set) var last: Coordinate?
  private var origin: Coordinate?
  /// Seconds the legs so far take.
  private(set) var elapsed = 0.0

  mutating func add(_ point: Coordinate) {
    if origin == nil { origin = point }
    last = point
  }

  mutating func move(to point: Coordinate, speed: Double, pause: Double) {
    if let last { elapsed += last.distance(to: point) / speed }
    elapsed += pause.rounded()
    legs.append((point, speed, pause))
    last = point
  }

  /// Stays where it is until `elapsed` reaches `seconds`.
  mutating func wait(until seconds: Double) {
    guard let last, seconds > elapsed else { return }
    move(to: last, speed: 1, pause: seconds - elapsed)
  }

  func samples(limit: Int = .max) -> [Coordinate] {
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
      if result.count >= limit { break }
    }
    return Array(result.prefix(limit))
  }
}
