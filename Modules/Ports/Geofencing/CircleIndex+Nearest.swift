import Foundation

extension CircleIndex {
  /// The `k` circles whose centres are nearest the point, within
  /// `maxDistance` metres, nearest first (ties by key). Searches rings of
  /// cells outward and stops once no unseen cell can hold anything nearer,
  /// or once every circle was seen (an index holding fewer than `k`, as a
  /// person's few places do, would otherwise scan every empty cell out to
  /// `maxDistance`).
  public func nearest(latitude: Double, longitude: Double, k: Int, maxDistance: Double = .infinity) -> [(key: Int, distance: Double)] {
    guard k > 0, count > 0 else { return [] }
    let p1 = Haversine.radians(latitude)
    let l1 = Haversine.radians(longitude)
    let c1 = cos(p1)
    var best: [(key: Int, distance: Double)] = []
    var seen = 0
    func consider(_ slot: Int32) {
      let i = Int(slot)
      guard alive[i] else { return }
      seen += 1
      let (latitude, longitude) = degrees[i]
      let d = Haversine.distance(
        phi1: p1, lambda1: l1, cosPhi1: c1, phi2: Haversine.radians(latitude), lambda2: Haversine.radians(longitude), cosPhi2: cosPhi[i])
      guard d <= maxDistance else { return }
      if best.count == k, let last = best.last, (d, keys[i]) >= (last.distance, last.key) { return }
      let entry = (key: keys[i], distance: d)
      let index = best.firstIndex { ($0.distance, $0.key) > (d, keys[i]) } ?? best.count
      best.insert(entry, at: index)
      if best.count > k { best.removeLast() }
    }
    // Polar circles are few; their centres are checked directly.
    for slot in polar { consider(slot) }
    let centreLat = latIndex(latitude)
    let centreLon = lonIndex(longitude)
    // The narrowest a cell gets between here and the ring: a lower bound on
    // how far any cell of ring r (r ≥ 1) is from the point.
    let cellMeters = cellDegrees * Haversine.metersPerDegree
    let maxRing = Int64(min(Double(lonCells), (min(maxDistance, 20_037_509) / (cellMeters * 0.01)).rounded(.up)))
    var ring: Int64 = 0
    while ring <= maxRing, seen < count {
      let lowerBound = Double(max(0, ring - 1)) * cellMeters * max(0.01, cos(min(89, abs(latitude) + Double(ring) * cellDegrees) * Double.pi / 180))
      if lowerBound > maxDistance { break }
      if best.count == k, let last = best.last, lowerBound > last.distance { break }
      forEachRingCell(centreLat, centreLon, ring) { cell in
        guard let list = centres.find(cell) else { return }
        centres.withSlots(of: list) { $0.forEach(consider) }
      }
      ring += 1
    }
    return best
  }

  private func forEachRingCell(_ lat: Int64, _ lon: Int64, _ ring: Int64, _ body: (Int64) -> Void) {
    let maxLat = Int64((180 / cellDegrees).rounded(.up))
    if ring == 0 {
      body(cell(lat, lon))
      return
    }
    let lonWidth = min(ring, lonCells / 2)
    // Half way round, -width and +width are the same column: visit it once
    // (a circle seen twice would be listed twice and end the search early).
    let east = 2 * lonWidth >= lonCells ? lonWidth - 1 : lonWidth
    for dLat in -ring...ring {
      let row = lat + dLat
      guard row >= 0, row <= maxLat else { continue }
      if abs(dLat) == ring {
        for dLon in -lonWidth...east { body(cell(row, lon + dLon)) }
      } else if ring <= lonCells / 2 {
        body(cell(row, lon - ring))
        if 2 * ring < lonCells { body(cell(row, lon + ring)) }
      }
    }
  }
}
