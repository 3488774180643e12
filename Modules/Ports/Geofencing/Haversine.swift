import Foundation

/// The great-circle distance exactly as ../shared/bench/gen.py defines the
/// matching answer (radians by `x * pi / 180`, then the haversine), so the
/// index's matches equal any peer's on the same printed numbers.
public enum Haversine {
  public static let earthRadius = 6_371_008.8
  public static let metersPerDegree = earthRadius * Double.pi / 180

  @inline(__always)
  public static func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }

  /// Distance in metres between two points given in radians, with the
  /// cosine of the first latitude precomputed.
  @inline(__always)
  public static func distance(phi1: Double, lambda1: Double, cosPhi1: Double, phi2: Double, lambda2: Double, cosPhi2: Double) -> Double {
    let sinPhi = sin((phi2 - phi1) / 2)
    let sinLambda = sin((lambda2 - lambda1) / 2)
    let a = sinPhi * sinPhi + cosPhi1 * cosPhi2 * (sinLambda * sinLambda)
    return 2 * earthRadius * asin(sqrt(a))
  }
}
