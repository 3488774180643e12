import Foundation

extension Coordinate {
  /// Mean Earth radius (IUGG), the value the benchmark generator uses too.
  public static let earthRadiusMeters = 6_371_008.8

  /// Great-circle distance in metres (haversine). Longitudes are compared
  /// through sin², so points on either side of the antimeridian are near.
  public func distance(to other: Coordinate) -> Double {
    let phi1 = latitude * .pi / 180
    let phi2 = other.latitude * .pi / 180
    let dPhi = phi2 - phi1
    let dLambda = (other.longitude - longitude) * .pi / 180
    let sinPhi = sin(dPhi / 2)
    let sinLambda = sin(dLambda / 2)
    let a = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
    return 2 * Self.earthRadiusMeters * asin(min(1, sqrt(a)))
  }
}
