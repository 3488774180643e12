import CSinCos
import Foundation

extension CircleIndex {
  /// A circle as a unit vector and the haversine threshold of its radius.
  /// The squared chord between unit vectors is 4·a of the haversine formula,
  /// so `a ≤ sin²(r / 2R)` decides containment with a few multiplications.
  /// Rounding makes the two differ by far less than `band` of a: a point
  /// inside the lower bound is inside, outside the upper bound outside, and
  /// only one in the thin band between runs the exact formula.
  /// One per slot (32 bytes, two to a cache line); a cell lists slots.
  struct Entry: Sendable {
    let x: Double
    let y: Double
    let z: Double
    let threshold: Double

    enum Verdict { case inside, outside, exact }

    /// Relative width of the band the exact formula decides.
    static let band = 1e-7

    init(sinPhi: Double, cosPhi: Double, lambda: Double, radius: Double) {
      let (sinLambda, cosLambda) = Self.sineAndCosine(lambda)
      x = cosPhi * cosLambda
      y = cosPhi * sinLambda
      z = sinPhi
      let half = Self.sine(min(radius / (2 * Haversine.earthRadius), Double.pi / 2))
      // Rounding in the chord is far below 1e-12 of a; the band is generous.
      threshold = half * half * (1 + Self.band) + Self.slack
    }

    /// Both in one call (glibc's `sincos`): a load takes them of a million
    /// latitudes and longitudes. glibc answers each bit for bit as `sin`
    /// and `cos` do (tested), so the exact formula's cosines, and with them
    /// the answers, stay the C grid's.
    @inline(__always) static func sineAndCosine(_ angle: Double) -> (sine: Double, cosine: Double) {
      var sine = 0.0
      var cosine = 0.0
      wh_sincos(angle, &sine, &cosine)
      return (sine, cosine)
    }

    /// `sin`, by its series for the small angles of a radius over the
    /// Earth's diameter (under 0.01: the first omitted term is at most
    /// 2e-16 of the answer, far inside the band), by libm otherwise.
    @inline(__always) static func sine(_ angle: Double) -> Double {
      guard angle < 0.01 else { return sin(angle) }
      let square = angle * angle
      return angle * (1 - square / 6 * (1 - square / 20))
    }

    static let slack = 1e-15
    /// The lower bound, from the upper one: `h²(1 − band) − slack` where
    /// `threshold = h²(1 + band) + slack`. Derived rather than stored, so
    /// an entry is 32 bytes; the few ulps this may differ by are nothing
    /// against a band of 1e-7.
    static let narrowing = (1 - band) / (1 + band)
    static let narrowingOffset = slack * narrowing + slack

    @inline(__always)
    func verdict(_ px: Double, _ py: Double, _ pz: Double) -> Verdict {
      let dx = x - px
      let dy = y - py
      let dz = z - pz
      let a = (dx * dx + dy * dy + dz * dz) * 0.25
      return a > threshold ? .outside : a < threshold * Self.narrowing - Self.narrowingOffset ? .inside : .exact
    }
  }
}
