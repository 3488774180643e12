import Foundation

extension CircleIndex {
  @inline(__always)
  func latIndex(_ latitude: Double) -> Int64 { Int64(((latitude + 90) / cellDegrees).rounded(.down)) }

  @inline(__always)
  func lonIndex(_ longitude: Double) -> Int64 {
    let raw = Int64(((longitude + 180) / cellDegrees).rounded(.down))
    return ((raw % lonCells) + lonCells) % lonCells
  }

  @inline(__always)
  func cellKey(latitude: Double, longitude: Double) -> Int64 {
    cell(latIndex(latitude), lonIndex(longitude))
  }

  @inline(__always)
  func cell(_ lat: Int64, _ lon: Int64) -> Int64 { lat &* SlotGrid.rowFactor &+ ((lon % lonCells) + lonCells) % lonCells }

  /// The cell rows and columns a circle's bounding box touches (nil: it
  /// reaches a pole), with a small margin so rounding never leaves a cell out.
  func cellSpan(latitude: Double, longitude: Double, radius: Double) -> (lats: ClosedRange<Int64>, lons: ClosedRange<Int64>)? {
    let latSpan = radius / Haversine.metersPerDegree * 1.001 + 1e-7
    let south = latitude - latSpan
    let north = latitude + latSpan
    if north > 90 - Self.polarMargin || south < -90 + Self.polarMargin { return nil }
    let widest = cos(max(abs(south), abs(north)) * Double.pi / 180)
    let lonSpan = radius / (Haversine.metersPerDegree * widest) * 1.001 + 1e-7
    let firstLon = Int64(((longitude - lonSpan + 180) / cellDegrees).rounded(.down))
    let lastLon = Int64(((longitude + lonSpan + 180) / cellDegrees).rounded(.down))
    // A circle wider than the world in longitude is filed everywhere once.
    let lonRange = lastLon - firstLon + 1 >= lonCells ? 0...(lonCells - 1) : firstLon...lastLon
    return (latIndex(south)...latIndex(north), lonRange)
  }

  /// The cells of `cellSpan`, as keys. Returned rather than yielded: a
  /// callback that mutated the index would copy its tables.
  func cellsCovering(latitude: Double, longitude: Double, radius: Double) -> [Int64]? {
    guard let span = cellSpan(latitude: latitude, longitude: longitude, radius: radius) else { return nil }
    var result: [Int64] = []
    result.reserveCapacity(span.lats.count * span.lons.count)
    for lat in span.lats {
      for lon in span.lons { result.append(cell(lat, lon)) }
    }
    return result
  }
}
