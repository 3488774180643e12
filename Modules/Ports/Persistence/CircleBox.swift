import Domain
import Foundation

/// The latitude and longitude range that holds every point within
/// `radius` metres of `center` (by `Coordinate.distance`), widened a little
/// so an index keeping 32-bit floats (SQLite's R*Tree) cannot cut a point
/// on its edge off. A circle over a pole or across the antimeridian takes
/// every longitude.
public struct CircleBox: Equatable, Sendable {
  public let minLatitude: Double
  public let maxLatitude: Double
  public let minLongitude: Double
  public let maxLongitude: Double

  public init(minLatitude: Double, maxLatitude: Double, minLongitude: Double, maxLongitude: Double) {
    (self.minLatitude, self.maxLatitude, self.minLongitude, self.maxLongitude) = (minLatitude, maxLatitude, minLongitude, maxLongitude)
  }

  public func contains(_ point: Coordinate) -> Bool {
    minLatitude <= point.latitude && point.latitude <= maxLatitude && minLongitude <= point.longitude && point.longitude <= maxLongitude
  }

  public init(center: Coordinate, radius: Double) {
    let angle = (max(radius, 0) * 1.01 + 5) / Coordinate.earthRadiusMeters
    let spread = angle * 180 / .pi
    minLatitude = max(-90, center.latitude - spread)
    maxLatitude = min(90, center.latitude + spread)
    // Within `angle` of the centre, the longitude differs by at most
    // asin(sin(angle) / cos(latitude)); at or past a pole, by anything.
    let cosine = cos(center.latitude * .pi / 180)
    let reach = sin(angle) / max(cosine, 0)
    guard reach.isFinite, reach < 1, maxLatitude < 90, minLatitude > -90 else {
      (minLongitude, maxLongitude) = (-180, 180)
      return
    }
    let degrees = asin(reach) * 180 / .pi
    guard center.longitude - degrees >= -180, center.longitude + degrees <= 180 else {
      (minLongitude, maxLongitude) = (-180, 180)
      return
    }
    (minLongitude, maxLongitude) = (center.longitude - degrees, center.longitude + degrees)
  }
}
