import Domain
import Engine
import Foundation
import Geofencing
import Testing

/// Wake-up fixes after leaving the coverage edge come out of the budget and
/// back off when they find no move; with `confirmArrivals` an arrival
/// region's entry waits for GPS. Driven by a manual clock.
@Suite struct ArrivalWakeAndConfirmTests {
  /// More destinations than a plan holds, so the plan has an edge region.
  func crowded(_ h: ArrivalHarness) throws {
    for i in 0..<20 { try h.task("Errand \(i)", north: 600 + Double(i) * 150) }
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
  }

  func singleFixes(_ h: ArrivalHarness) -> Int { h.precise.singleFixes.withLock { $0 } }

  func edgeExit(_ h: ArrivalHarness) throws -> [ArrivalEvent] {
    let edge = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .edge })
    return h.arrivals.regionEvent(RegionEvent(id: edge.id, kind: .exited, at: h.clock.now()))
  }

  @Test func aWakeUpFixWhereThePlanWasMadeKeepsThePlanAndBacksOff() throws {
    let h = ArrivalHarness()
    try crowded(h)
    #expect(try edgeExit(h) == [.wakeFixRequested])
    #expect(singleFixes(h) == 1)
    // The fix says the person is still at home: the OS's position wandered.
    let kept = h.arrivals.preciseFix(ArrivalHarness.home, accuracy: 10)
    #expect(!kept.contains { if case .planned = $0 { return true } else { return false } })
    // The next exit within the 120 s backoff asks nothing.
    h.clock.advance(by: 60)
    _ = try edgeExit(h)
    #expect(singleFixes(h) == 1)
    // After it, one more; another fix at home doubles the wait to 240 s.
    h.clock.advance(by: 61)
    #expect(try edgeExit(h) == [.wakeFixRequested])
    _ = h.arrivals.preciseFix(ArrivalHarness.home, accuracy: 10)
    h.clock.advance(by: 200)
    _ = try edgeExit(h)
    #expect(singleFixes(h) == 2)
    h.clock.advance(by: 41)
    #expect(try edgeExit(h) == [.wakeFixRequested])
    // A real move, out past the edge, replans…
    let edge = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .edge })
    let moved = h.arrivals.preciseFix(ArrivalHarness.point(north: edge.radius + 200), accuracy: 10)
    #expect(moved.contains { if case .planned = $0 { return true } else { return false } })
    // …and ends the backoff: the new edge's exit asks at once.
    #expect(try edgeExit(h) == [.wakeFixRequested])
  }

  @Test func wakeUpFixesComeOutOfTheAllowanceAndStopWhenItIsSpent() throws {
    var config = ArrivalConfig()
    config.session.allowance = 12
    config.session.wakeFixBackoff = 0
    config.session.wakeFixBackoffMax = 0
    let h = ArrivalHarness(config: config)
    try crowded(h)
    #expect(try edgeExit(h) == [.wakeFixRequested])
    _ = h.arrivals.preciseFix(ArrivalHarness.home, accuracy: 10)
    #expect(try edgeExit(h) == [.wakeFixRequested])
    _ = h.arrivals.preciseFix(ArrivalHarness.home, accuracy: 10)
    // 5 s each: a third does not fit in 12 s.
    #expect(try edgeExit(h) == [.planKept("no tracking budget left for a wake-up fix")])
    #expect(singleFixes(h) == 2)
    #expect(h.arrivals.currentBudget.available(at: h.clock.now(), config: config.session) == 2)
  }

  @Test func withConfirmArrivalsAnEntryWaitsForGPSAndAWanderingOSDoesNotFireTwice() throws {
    var config = ArrivalConfig()
    config.session.confirmArrivals = true
    let h = ArrivalHarness(config: config)
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let region = try #require(h.region(of: milk))
    let entered = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.reminders(entered).isEmpty, "the OS's word alone fires nothing")
    #expect(h.precise.isOn)
    var fired: [String] = []
    for _ in 0..<3 {
      h.clock.advance(by: 1)
      fired += h.reminders(h.arrivals.preciseFix(ArrivalHarness.point(north: 1000), accuracy: 10))
    }
    #expect(fired == ["Buy milk"])
    // The OS's position wanders out and back while the person stays: no session, no second reminder.
    h.clock.advance(by: 600)
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .exited, at: h.clock.now()))
    let again = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(again.isEmpty)
  }

  @Test func withConfirmArrivalsAnEntryNoSessionCanConfirmFiresNothing() throws {
    var config = ArrivalConfig()
    config.session.confirmArrivals = true
    config.session.allowance = 10
    let h = ArrivalHarness(config: config)
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let region = try #require(h.region(of: milk))
    let events = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.reminders(events).isEmpty)
    #expect(events.contains { if case .sessionRefused = $0 { return true } else { return false } })
  }
}
