import Domain
import Foundation
import Geofencing
import Testing

@Suite struct CircleIndexTests {
  struct Circle {
    let key: Int
    let lat: Double
    let lon: Double
    let radius: Double
  }



  func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let p1 = Haversine.radians(lat1)
    let p2 = Haversine.radians(lat2)
    return Haversine.distance(phi1: p1, lambda1: Haversine.radians(lon1), cosPhi1: cos(p1), phi2: p2, lambda2: Haversine.radians(lon2), cosPhi2: cos(p2))
  }

  /// Circles around a few hot spots, including the antimeridian and near a pole.
  func circles(_ count: Int, random: inout SplitMix64) -> [Circle] {
    let spots: [(Double, Double)] = [(60.17, 24.94), (-16.5, 179.99), (-16.5, -179.99), (89.5, 10), (0, 0)]
    return (0..<count).map { i in
      let spot = spots[i % spots.count]
      let lat = max(-90, min(90, spot.0 + Double.random(in: -0.05...0.05, using: &random)))
      var lon = spot.1 + Double.random(in: -0.05...0.05, using: &random)
      if lon > 180 { lon -= 360 }
      if lon < -180 { lon += 360 }
      return Circle(key: i, lat: lat, lon: lon, radius: Double.random(in: 25...3000, using: &random))
    }
  }

  @Test func containmentMatchesBruteForceEverywhere() {
    var random = SplitMix64(seed: 1)
    let all = circles(3000, random: &random)
    var index = CircleIndex()
    for c in all { index.insert(key: c.key, latitude: c.lat, longitude: c.lon, radius: c.radius) }
    var queries = 0
    var hits = 0
    for c in all.prefix(600) {
      for _ in 0..<3 {
        var lon = c.lon + Double.random(in: -0.03...0.03, using: &random)
        if lon > 180 { lon -= 360 }
        if lon < -180 { lon += 360 }
        let lat = max(-90, min(90, c.lat + Double.random(in: -0.03...0.03, using: &random)))
        let expected = Set(all.filter { distance(lat, lon, $0.lat, $0.lon) <= $0.radius }.map(\.key))
        let actual = index.containing(latitude: lat, longitude: lon)
        #expect(Set(actual) == expected && actual.count == expected.count, "at \(lat),\(lon)")
        queries += 1
        hits += expected.count
      }
    }
    #expect(hits > queries, "the workload must actually hit circles")
  }

  /// Filing many at once answers exactly as filing them one by one, with
  /// keys repeated in the batch (the last wins) and keys held before it
  /// (replaced), and the index stays incremental afterwards.
  @Test func aBulkInsertAnswersAsOneByOneDoes() {
    var random = SplitMix64(seed: 7)
    let all = circles(2000, random: &random)
    var one = CircleIndex()
    var bulk = CircleIndex()
    for c in all.prefix(100) {
      one.insert(key: c.key, latitude: c.lat, longitude: c.lon, radius: c.radius)
      bulk.insert(key: c.key, latitude: c.lat, longitude: c.lon, radius: c.radius)
    }
    // Keys 0–99 again (held before), and keys 1000–1099 twice within the batch.
    var batch = all.map { CircleIndex.Circle(key: $0.key, latitude: $0.lat, longitude: $0.lon, radius: $0.radius) }
    batch += all.prefix(100).map { CircleIndex.Circle(key: $0.key + 1000, latitude: $0.lat, longitude: $0.lon, radius: $0.radius / 2) }
    for c in batch { one.insert(key: c.key, latitude: c.latitude, longitude: c.longitude, radius: c.radius) }
    bulk.insert(contentsOf: batch)
    #expect(bulk.count == one.count && bulk.count == 2000)
    bulk.remove(key: 5)
    one.remove(key: 5)
    for c in all.prefix(400) {
      let lat = max(-90, min(90, c.lat + Double.random(in: -0.02...0.02, using: &random)))
      var lon = c.lon + Double.random(in: -0.02...0.02, using: &random)
      if lon > 180 { lon -= 360 }
      if lon < -180 { lon += 360 }
      #expect(Set(bulk.containing(latitude: lat, longitude: lon)) == Set(one.containing(latitude: lat, longitude: lon)), "at \(lat),\(lon)")
      #expect(bulk.nearest(latitude: lat, longitude: lon, k: 5).map(\.key) == one.nearest(latitude: lat, longitude: lon, k: 5).map(\.key))
    }
  }

  /// A bulk load into an empty index lays every list out flat; it must
  /// answer as filing one by one does, with keys given twice (the last
  /// wins), keys out of order, and incremental inserts, replacements and
  /// removals afterwards touching the flat runs.
  @Test func aBulkLoadIntoAnEmptyIndexAnswersAsOneByOneDoes() {
    var random = SplitMix64(seed: 11)
    let all = circles(3000, random: &random)
    var batch = all.reversed().map { CircleIndex.Circle(key: $0.key, latitude: $0.lat, longitude: $0.lon, radius: $0.radius) }
    batch += all.prefix(50).map { CircleIndex.Circle(key: $0.key, latitude: $0.lat + 0.01, longitude: $0.lon, radius: $0.radius / 3) }
    var one = CircleIndex()
    for c in batch { one.insert(key: c.key, latitude: c.latitude, longitude: c.longitude, radius: c.radius) }
    var bulk = CircleIndex()
    bulk.insert(contentsOf: batch)
    #expect(bulk.count == one.count && bulk.count == 3000)
    for key in stride(from: 0, to: 3000, by: 7) {
      one.remove(key: key)
      bulk.remove(key: key)
    }
    for c in all.suffix(40) {
      one.insert(key: c.key + 10_000, latitude: c.lat, longitude: c.lon, radius: c.radius * 2)
      bulk.insert(key: c.key + 10_000, latitude: c.lat, longitude: c.lon, radius: c.radius * 2)
      one.insert(key: c.key, latitude: c.lat, longitude: c.lon, radius: 30)
      bulk.insert(key: c.key, latitude: c.lat, longitude: c.lon, radius: 30)
    }
    #expect(bulk.count == one.count)
    var hits = 0
    for c in all.prefix(600) {
      let lat = max(-90, min(90, c.lat + Double.random(in: -0.02...0.02, using: &random)))
      var lon = c.lon + Double.random(in: -0.02...0.02, using: &random)
      if lon > 180 { lon -= 360 }
      if lon < -180 { lon += 360 }
      let expected = one.containing(latitude: lat, longitude: lon)
      hits += expected.count
      #expect(Set(bulk.containing(latitude: lat, longitude: lon)) == Set(expected), "at \(lat),\(lon)")
      #expect(bulk.nearest(latitude: lat, longitude: lon, k: 5).map(\.key) == one.nearest(latitude: lat, longitude: lon, k: 5).map(\.key))
    }
    #expect(hits > 600, "the workload must actually hit circles")
  }

  @Test func removalAndReplacementAreIncremental() {
    var index = CircleIndex()
    index.insert(key: 1, latitude: 60.17, longitude: 24.94, radius: 100)
    index.insert(key: 2, latitude: 60.17, longitude: 24.94, radius: 50)
    #expect(Set(index.containing(latitude: 60.17, longitude: 24.94)) == [1, 2])
    index.remove(key: 1)
    #expect(index.containing(latitude: 60.17, longitude: 24.94) == [2])
    index.insert(key: 2, latitude: 61, longitude: 25, radius: 50)
    #expect(index.containing(latitude: 60.17, longitude: 24.94).isEmpty)
    #expect(index.containing(latitude: 61, longitude: 25) == [2])
    #expect(index.count == 1)
    index.insert(key: 3, latitude: 60.17, longitude: 24.94, radius: 100)
    #expect(index.containing(latitude: 60.17, longitude: 24.94) == [3])
  }

  @Test func nearestMatchesBruteForce() {
    var random = SplitMix64(seed: 2)
    let all = circles(2000, random: &random)
    var index = CircleIndex()
    for c in all { index.insert(key: c.key, latitude: c.lat, longitude: c.lon, radius: c.radius) }
    for c in all.prefix(100) {
      let lat = c.lat + 0.01
      let lon = c.lon
      let expected = all.map { ($0.key, distance(lat, lon, $0.lat, $0.lon)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(7)
      let actual = index.nearest(latitude: lat, longitude: lon, k: 7)
      #expect(actual.map(\.key) == expected.map(\.0), "near \(lat),\(lon)")
    }
    let bounded = index.nearest(latitude: 0, longitude: 0, k: 5, maxDistance: 1)
    #expect(bounded.allSatisfy { $0.distance <= 1 })
  }

  /// Fewer circles than asked for (a person's few places): every one within
  /// reach comes back, the farthest too, also after removals; the search
  /// ends once all were seen rather than at the edge of `maxDistance`.
  @Test func fewerCirclesThanAskedForAreAllFound() {
    var index = CircleIndex()
    index.insert(key: 1, latitude: 60.17, longitude: 24.94, radius: 100)
    index.insert(key: 2, latitude: 60.20, longitude: 24.90, radius: 100)
    index.insert(key: 3, latitude: 60.50, longitude: 24.94, radius: 100)  // about 37 km north
    index.insert(key: 4, latitude: 60.18, longitude: 24.95, radius: 100)
    index.insert(key: 5, latitude: 61.20, longitude: 24.94, radius: 100)  // beyond 50 km
    index.remove(key: 4)
    let found = index.nearest(latitude: 60.17, longitude: 24.94, k: 64, maxDistance: 50_000)
    #expect(found.map(\.key) == [1, 2, 3])
    #expect(index.nearest(latitude: 60.17, longitude: 24.94, k: 64).map(\.key) == [1, 2, 3, 5])
  }

  /// Half way round the world the ring's two sides are one column: a
  /// circle there is listed once.
  @Test func theColumnHalfWayRoundIsSearchedOnce() {
    var index = CircleIndex(cellDegrees: 10)
    index.insert(key: 1, latitude: 5, longitude: 5, radius: 100)
    index.insert(key: 2, latitude: 5, longitude: -175, radius: 100)
    #expect(index.nearest(latitude: 5, longitude: 5, k: 5).map(\.key) == [1, 2])
  }
}
