import Domain
import Foundation
import Simulation
import Testing

/// Two strategies run on the same person-day must meet the same phone: the
/// world's draws depend on the seed and the moment, not on how often or in
/// what order a strategy asked. Otherwise a comparison of two strategies
/// (or two versions of the engine) measures the order of their draws.
@Suite struct CommonRandomNumbersTests {
  static let here = try! Coordinate(latitude: 60.17, longitude: 24.94)
  let start = Date(timeIntervalSince1970: 1_000_000)

  @Test func keyedDrawsDependOnKeySaltAndSecondOnly() {
    let at = start.addingTimeInterval(42.3)
    var a = SimRandom.keyed(7, 1, at: at)
    var b = SimRandom.keyed(7, 1, at: start.addingTimeInterval(42.9))
    #expect(a.next() == b.next(), "the same second")
    var later = SimRandom.keyed(7, 1, at: start.addingTimeInterval(43))
    var salted = SimRandom.keyed(7, 2, at: at)
    var other = SimRandom.keyed(8, 1, at: at)
    var reference = SimRandom.keyed(7, 1, at: at)
    let value = reference.next()
    #expect(later.next() != value)
    #expect(salted.next() != value)
    #expect(other.next() != value)
    #expect(SimRandom.digest("wh:a") == SimRandom.digest("wh:a"))
    #expect(SimRandom.digest("wh:a") != SimRandom.digest("wh:b"))
  }

  @Test func theOSPositionAtAMomentDoesNotDependOnHowOftenItWasAsked() {
    let config = WorldConfig.CoarsePosition()
    let often = CoarsePositionProcess(config: config, random: SimRandom(seed: 5))
    let seldom = CoarsePositionProcess(config: config, random: SimRandom(seed: 5))
    _ = often.sample(Self.here, at: start)
    _ = seldom.sample(Self.here, at: start)
    for t in 1..<3600 { _ = often.sample(Self.here, at: start.addingTimeInterval(Double(t))) }
    for t in stride(from: 0, through: 3600, by: 600) where t > 0 { _ = seldom.sample(Self.here, at: start.addingTimeInterval(Double(t))) }
    let end = start.addingTimeInterval(3600)
    let a = often.sample(Self.here, at: end)
    let b = seldom.sample(Self.here, at: end)
    #expect(a.point == b.point && a.source == b.source)
    // A different seed is a different phone.
    let other = CoarsePositionProcess(config: config, random: SimRandom(seed: 6))
    _ = other.sample(Self.here, at: start)
    #expect(other.sample(Self.here, at: end).point != a.point)
  }

  @Test func aFixAskedAtTheSameSecondIsTheSameFixWhateverCameBefore() throws {
    let world = WorldConfig()
    let busy = SimulatedLocation(world: world, random: SimRandom(seed: 11))
    let idle = SimulatedLocation(world: world, random: SimRandom(seed: 11))
    // One phone's app asked fixes all morning; the other asks its first
    // now (its location services saw the person standing there all along).
    for t in stride(from: 0, to: 1800, by: 60) {
      busy.requestSingleFix()
      _ = busy.preciseFix(position: Self.here, at: start.addingTimeInterval(Double(t)))
      #expect(idle.preciseFix(position: Self.here, at: start.addingTimeInterval(Double(t))) == nil, "nothing asked, nothing comes")
    }
    let now = start.addingTimeInterval(1800)
    busy.requestSingleFix()
    idle.requestSingleFix()
    let a = try #require(busy.preciseFix(position: Self.here, at: now))
    let b = try #require(idle.preciseFix(position: Self.here, at: now))
    #expect(a.point == b.point && a.accuracy == b.accuracy)
  }
}
