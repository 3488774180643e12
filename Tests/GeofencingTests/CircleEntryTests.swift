import Foundation
import Testing

@testable import Geofencing

/// The index's circle vectors take their trigonometry the quick way: the
/// sine of a radius's angle by its series (agreeing with libm far inside
/// the band the quick verdict leaves to the exact formula), an angle's sine
/// and cosine in one call (agreeing bit for bit).
@Suite struct CircleEntryTests {
  @Test func theSeriesIsTheSine() {
    var angle = 0.0
    while angle < 0.02 {
      let exact = sin(angle)
      #expect(abs(CircleIndex.Entry.sine(angle) - exact) <= exact * 1e-15, "\(angle)")
      angle += 0.000_013_7
    }
    #expect(CircleIndex.Entry.sine(0) == 0 && CircleIndex.Entry.sine(1) == sin(1))
  }

  /// Bit for bit: the exact formula takes the latitude's cosine from here.
  @Test func sineAndCosineAreLibms() {
    var random = SystemRandomNumberGenerator()
    for step in 0..<200_000 {
      // Latitudes and longitudes as files print them (7 decimals), and any angle.
      let angle = step % 2 == 0
        ? Double(Int.random(in: -1_800_000_000...1_800_000_000, using: &random)) / 1e7 * Double.pi / 180
        : Double.random(in: -10...10, using: &random)
      let (sine, cosine) = CircleIndex.Entry.sineAndCosine(angle)
      #expect(sine.bitPattern == sin(angle).bitPattern && cosine.bitPattern == cos(angle).bitPattern, "\(angle)")
    }
  }
}
