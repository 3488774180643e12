import Domain
import Engine
import Foundation
import Geofencing
import Testing

/// A session the restart cooldown refuses is started when the cooldown
/// ends (`SessionConfig.retryAfterCooldown`), for the places that still
/// want confirming: the arrival that wanted it is not dropped.
@Suite struct DeferredSessionTests {
  /// Two tasks a few hundred metres apart; the first confirmed by a session
  /// that fires it and stops; the second's entry 10 s later wants a
  /// session the cooldown refuses. The harness and the second's region.
  func secondEntryRefused(retry: Bool) throws -> (ArrivalHarness, ReminderTask) {
    var config = ArrivalConfig()
    config.session.retryAfterCooldown = retry
    let h = ArrivalHarness(config: config)
    let first = try h.task("Buy milk", north: 1000)
    let second = try h.task("Post letter", north: 1400)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let milk = try #require(h.region(of: first))
    _ = h.arrivals.regionEvent(RegionEvent(id: milk.id, kind: .entered, at: h.clock.now()))
    // The confirming fix: close to the place, not in it: a session decides.
    let close = h.arrivals.preciseFix(ArrivalHarness.point(north: 1000 - 130), accuracy: 10)
    #expect(close.contains { if case .sessionStarted = $0 { true } else { false } }, "\(close)")
    walkIn(h, to: 1000)
    #expect(h.sink.notifications.map(\.title) == ["Buy milk"])
    #expect(!h.arrivals.sessionRunning, "settled: nothing left to confirm")
    h.clock.advance(by: 10)
    let post = try #require(h.region(of: second))
    _ = h.arrivals.regionEvent(RegionEvent(id: post.id, kind: .entered, at: h.clock.now()))
    let refused = h.arrivals.preciseFix(ArrivalHarness.point(north: 1400 - 130), accuracy: 10)
    #expect(refused.contains { if case .sessionRefused(let why) = $0 { why.contains("cooldown") } else { false } }, "\(refused)")
    return (h, second)
  }

  /// Two good fixes inside a place whose centre is `north`, after walking 90 m in 10 s.
  func walkIn(_ h: ArrivalHarness, to north: Double) {
    h.clock.advance(by: 10)
    _ = h.arrivals.preciseFix(ArrivalHarness.point(north: north - 40), accuracy: 8)
    h.clock.advance(by: 1)
    _ = h.arrivals.preciseFix(ArrivalHarness.point(north: north - 39), accuracy: 8)
  }

  @Test func theRefusedSessionStartsWhenTheCooldownEnds() throws {
    let (h, _) = try secondEntryRefused(retry: true)
    h.clock.advance(by: 10)
    #expect(!h.arrivals.tick().contains { if case .sessionStarted = $0 { true } else { false } }, "not before the cooldown ends")
    h.clock.advance(by: 30)
    let started = h.arrivals.tick()
    #expect(started.contains { if case .sessionStarted = $0 { true } else { false } }, "\(started)")
    walkIn(h, to: 1400)
    #expect(h.sink.notifications.map(\.title) == ["Buy milk", "Post letter"])
  }

  @Test func aPlaceDoneMeanwhileStartsNothing() throws {
    let (h, second) = try secondEntryRefused(retry: true)
    _ = try h.engine.tasks.done(second.id.rawValue)
    _ = h.arrivals.tasksChanged()
    h.clock.advance(by: 51)
    #expect(!h.arrivals.tick().contains { if case .sessionStarted = $0 { true } else { false } })
  }

  @Test func offTheRefusalDropsIt() throws {
    let (h, _) = try secondEntryRefused(retry: false)
    h.clock.advance(by: 51)
    #expect(!h.arrivals.tick().contains { if case .sessionStarted = $0 { true } else { false } })
  }
}
