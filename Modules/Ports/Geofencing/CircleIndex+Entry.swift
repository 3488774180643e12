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

    init(phi: Double, cosPhi: Double, lambda: Double, radius: Double) {
      x = cosPhi * cos(lambda)
      y = cosPhi * sin(lambda)
      z = sin(phi)
      let half = sin(min(radius / (2 * Haversine.earthRadius), Double.pi / 2))
      // Rounding in the chord is far below 1e-12 of a; the band is generous.
      threshold = half * half * (1 + Self.band) + Self.slack
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
