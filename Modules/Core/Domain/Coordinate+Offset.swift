import Foundation

extension Coordinate {
  /// The point `meters` away along `bearing` (radians from north), on a
  /// local flat approximation: exact enough for the world's few-km errors.
  public func offset(meters: Double, bearing: Double) -> Coordinate {
    let north = meters * cos(bearing) / 111_195
    let east = meters * sin(bearing) / (111_195 * max(0.01, cos(latitude * .pi / 180)))
    var lon = longitude + east
    if lon > 180 { lon -= 360 }
    if lon < -180 { lon += 360 }
    return (try? Coordinate(latitude: max(-90, min(90, latitude + north)), longitude: lon)) ?? self
  }
}
