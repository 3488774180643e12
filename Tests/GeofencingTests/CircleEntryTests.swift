import Foundation
import Testing

@testable import Geofencing

/// The index's circle vectors take their trigonometry the quick way: the
/// sine of a radius's angle by its series, a longitude's sine and cosine in
/// one call. Both must agree with libm far inside the band the index's
/// quick verdict leaves to the exact formula.
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

  @Test func sineAndCosineAreLibms() {
    for step in -400...400 {
      let angle = Double(step) * 0.0079
      let (sine, cosine) = CircleIndex.Entry.sineAndCosine(angle)
      #expect(abs(sine - sin(angle)) <= 1e-15 && abs(cosine - cos(angle)) <= 1e-15, "\(angle)")
    }
  }
}
