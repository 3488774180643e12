import Foundation
import Persistence
import Testing
import TestSupport

@Suite struct HybridLogicalClockTests {
  @Test func stepsPastABackwardWallClock() {
    var clock = HybridLogicalClock(replica: Fixtures.replica("a"))
    let late = clock.tick(now: Date(timeIntervalSince1970: 1000))
    let early = clock.tick(now: Date(timeIntervalSince1970: 10))
    #expect(early > late)
    #expect(early.wallMillis == late.wallMillis && early.counter == late.counter + 1)
  }

  @Test func observedRemoteStampsAreNeverOvertakenByLocalOnes() {
    var clock = HybridLogicalClock(replica: Fixtures.replica("a"))
    clock.observe(Fixtures.stamp(5_000, 9, replica: "z"))
    let next = clock.tick(now: Date(timeIntervalSince1970: 1))
    #expect(next > Fixtures.stamp(5_000, 9, replica: "z"))
  }

  @Test(arguments: ["000000000001000-000003-abc", "999999999999999-000000-z-9"])
  func textFormRoundTrips(_ text: String) throws {
    let stamp = try #require(HLCTimestamp(parsing: text))
    #expect(stamp.description == text)
  }

  @Test(arguments: ["", "1-2", "x-1-a", "1-1-UPPER", "-1-0-a"])
  func rejectsMalformedStamps(_ text: String) {
    #expect(HLCTimestamp(parsing: text) == nil)
  }

  @Test func textOrderIsStampOrder() {
    let a = Fixtures.stamp(999, 12)
    let b = Fixtures.stamp(1_000, 2)
    #expect(a < b)
    #expect(a.description < b.description)
  }
}
