import Foundation

extension CircleIndex {
  /// A circle as a unit vector and the haversine threshold of its radius.
  /// The squared chord between unit vectors is 4·a of the haversine formula,
  /// so `a ≤ sin²(r / 2R)` decides containment with a few multiplications;
  /// the margin keeps every true match, and the exact formula decides.
  struct Entry: Sendable {
    let x: Double
    let y: Double
    let z: Double
    let threshold: Double
    let slot: Int32

    init(slot: Int32, phi: Double, lambda: Double, radius: Double) {
      self.slot = slot
      x = cos(phi) * cos(lambda)
      y = cos(phi) * sin(lambda)
      z = sin(phi)
      let half = sin(min(radius / (2 * Haversine.earthRadius), Double.pi / 2))
      // Rounding in the chord is far below 1e-12 of a; the margin is generous.
      threshold = half * half * (1 + 1e-9) + 1e-15
    }

    @inline(__always)
    func mayContain(_ px: Double, _ py: Double, _ pz: Double) -> Bool {
      let dx = x - px
      let dy = y - py
      let dz = z - pz
      return (dx * dx + dy * dy + dz * dz) * 0.25 <= threshold
    }
  }
}
