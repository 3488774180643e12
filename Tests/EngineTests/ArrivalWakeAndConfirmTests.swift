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

  /// After an exit the OS holds the person outside the edge and reports no
  /// other exit: a plan kept on a wake-up fix at home must not leave
  /// coverage behind for good if the person then walks off.
  /// An edge left once, its wake-up fix at home (the plan kept): the edge,
  /// and an arrival region whose events stand for any later wake.
  func spentEdge(_ h: ArrivalHarness) throws -> (edge: PlannedRegion, other: PlannedRegion) {
    try crowded(h)
    let edge = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .edge })
    let other = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .arrival })
    #expect(try edgeExit(h) == [.wakeFixRequested])
    _ = h.arrivals.preciseFix(ArrivalHarness.home, accuracy: 10)
    #expect(h.arrivals.currentPlan.regions.contains(edge), "the plan was kept")
    return (edge, other)
  }

  @Test func aSpentEdgeIsLookedAtAgainOnLaterWakesUntilTheOSSeesThePersonBackInside() throws {
    let h = ArrivalHarness()
    let (edge, other) = try spentEdge(h)
    // A wake within the backoff asks nothing.
    h.clock.advance(by: 60)
    _ = h.arrivals.regionEvent(RegionEvent(id: other.id, kind: .exited, at: h.clock.now()))
    #expect(singleFixes(h) == 1)
    // A wake after it, while the person moves, looks again…
    h.clock.advance(by: 61)
    let again = h.arrivals.regionEvent(RegionEvent(id: other.id, kind: .exited, at: h.clock.now()))
    #expect(again.contains(.wakeFixRequested))
    #expect(singleFixes(h) == 2)
    // …and a fix past the edge moves coverage with the person.
    let moved = h.arrivals.preciseFix(ArrivalHarness.point(north: edge.radius + 200), accuracy: 10)
    #expect(moved.contains { if case .planned = $0 { return true } else { return false } })
    #expect(!h.arrivals.currentPlan.regions.contains(edge))
  }

  @Test func anEdgeTheOSSeesThePersonBackInsideIsNotLookedAtAgain() throws {
    let h = ArrivalHarness()
    let (edge, other) = try spentEdge(h)
    _ = h.arrivals.regionEvent(RegionEvent(id: edge.id, kind: .entered, at: h.clock.now()))
    h.clock.advance(by: 3600)
    _ = h.arrivals.regionEvent(RegionEvent(id: other.id, kind: .exited, at: h.clock.now()))
    #expect(singleFixes(h) == 1, "the edge is armed again: its own exit will say when")
    // Nor while the device is still: a still person has not walked off.
    #expect(try edgeExit(h) == [.wakeFixRequested])
    _ = h.arrivals.preciseFix(ArrivalHarness.home, accuracy: 10)
    _ = h.arrivals.motionChanged(still: true)
    h.clock.advance(by: 3600)
    _ = h.arrivals.regionEvent(RegionEvent(id: other.id, kind: .exited, at: h.clock.now()))
    #expect(singleFixes(h) == 2)
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
    // 5 s each: a third does not fit in 12 s; the OS's own position (no GPS) stands in.
    #expect(try edgeExit(h) == [.planKept("no tracking budget left for a wake-up fix: the OS's own position will place the person")])
    #expect(singleFixes(h) == 2)
    #expect(h.precise.reducedFilter != nil)
    #expect(h.arrivals.currentBudget.available(at: h.clock.now(), config: config.session) == 2)
  }

  func confirmingHarness(allowance: TimeInterval? = nil) throws -> (ArrivalHarness, PlannedRegion) {
    var config = ArrivalConfig()
    config.session.confirmArrivals = true
    if let allowance { config.session.allowance = allowance }
    let h = ArrivalHarness(config: config)
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    return (h, try #require(h.region(of: milk)))
  }

  @Test func withConfirmArrivalsAnEntryWaitsForOneFixAndAWanderingOSDoesNotFireTwice() throws {
    let (h, region) = try confirmingHarness()
    let entered = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.reminders(entered).isEmpty, "the OS's word alone fires nothing")
    #expect(entered == [.confirmationRequested(region.id)])
    #expect(singleFixes(h) == 1)
    #expect(!h.precise.isOn, "one fix, not a session")
    h.clock.advance(by: 5)
    #expect(h.reminders(h.arrivals.preciseFix(ArrivalHarness.point(north: 1000), accuracy: 10)) == ["Buy milk"])
    // The OS's position wanders out and back while the person stays: no fix, no second reminder.
    h.clock.advance(by: 600)
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .exited, at: h.clock.now()))
    let again = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(again.isEmpty)
    #expect(singleFixes(h) == 1)
  }

  @Test func withConfirmArrivalsAFixFarAwayFiresNothingAndQuietsThatPlaceForAWhile() throws {
    let (h, region) = try confirmingHarness()
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    h.clock.advance(by: 5)
    #expect(h.reminders(h.arrivals.preciseFix(ArrivalHarness.home, accuracy: 10)).isEmpty, "the person is 1 km away")
    h.clock.advance(by: 60)
    #expect(h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now())).isEmpty, "within the quiet time")
    #expect(singleFixes(h) == 1)
    h.clock.advance(by: ArrivalConfig().session.wakeFixBackoff)
    #expect(h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now())) == [.confirmationRequested(region.id)])
  }

  @Test func withConfirmArrivalsAFixJustOutsideStartsASessionThatDecides() throws {
    let (h, region) = try confirmingHarness()
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    h.clock.advance(by: 5)
    let events = h.arrivals.preciseFix(ArrivalHarness.point(north: 1000 - 200), accuracy: 10)
    #expect(h.reminders(events).isEmpty)
    #expect(events.contains { if case .sessionStarted = $0 { return true } else { return false } }, "\(events)")
    #expect(h.precise.isOn)
  }

  /// A confirming fix too coarse for a session's rules, on a device the
  /// motion history holds still, is a phone indoors: a session would get
  /// fixes as coarse, so none starts unless asked for. Moving, one does.
  @Test(arguments: [(still: true, asked: false), (still: true, asked: true), (still: false, asked: false)])
  func aCoarseConfirmingFixOnAStillDeviceStartsNoSession(_ setup: (still: Bool, asked: Bool)) throws {
    var config = ArrivalConfig()
    config.session.sessionOnVagueFixWhileStill = setup.asked
    let h = ArrivalHarness(config: config)
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let region = try #require(h.region(of: milk))
    if setup.still { _ = h.arrivals.motionChanged(still: true) }
    h.clock.advance(by: 60)
    #expect(h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now())) == [.confirmationRequested(region.id)])
    h.clock.advance(by: 5)
    // 150 m from the centre of a 100 m place, as accurate as a Wi-Fi position: close, not conclusive.
    let events = h.arrivals.preciseFix(ArrivalHarness.point(north: 1000 - 150), accuracy: 65)
    #expect(h.reminders(events).isEmpty)
    let started = events.contains { if case .sessionStarted = $0 { true } else { false } }
    #expect(started == (!setup.still || setup.asked), "\(events)")
    #expect(h.precise.isOn == started)
  }

  @Test func withConfirmArrivalsAnEntryNoFixCanConfirmFiresNothing() throws {
    let (h, region) = try confirmingHarness(allowance: 4)
    let events = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.reminders(events).isEmpty)
    #expect(events.contains { if case .sessionRefused = $0 { return true } else { return false } })
    #expect(singleFixes(h) == 0)
  }

  @Test func aCrossingAfterLongStillnessIsTheOSsPositionMovingAndDoesNothing() throws {
    // Without confirming fixes, so an entry that is let through fires at once.
    let (h, region) = try ArrivalHarness.unconfirmedWatchingMilk()
    _ = h.arrivals.motionChanged(still: true)
    h.clock.advance(by: ArrivalConfig().session.stillnessVeto - 1)
    #expect(h.reminders(h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))) == ["Buy milk"], "still for less than the veto: the OS may be late")
    let (h2, region2) = try ArrivalHarness.unconfirmedWatchingMilk()
    _ = h2.arrivals.motionChanged(still: true)
    h2.clock.advance(by: ArrivalConfig().session.stillnessVeto + 1)
    let vetoed = h2.arrivals.regionEvent(RegionEvent(id: region2.id, kind: .entered, at: h2.clock.now()))
    #expect(h2.reminders(vetoed).isEmpty)
    #expect(vetoed.contains { if case .planKept = $0 { return true } else { return false } })
    // Told at once that it was moving by then: the crossing is taken after all.
    #expect(h2.reminders(h2.arrivals.motionChanged(still: false)) == ["Buy milk"])
    // Told only minutes later, it is not (the person may have left since);
    // crossings after that count again.
    let (h3, region3) = try ArrivalHarness.unconfirmedWatchingMilk()
    _ = h3.arrivals.motionChanged(still: true)
    h3.clock.advance(by: ArrivalConfig().session.stillnessVeto + 1)
    _ = h3.arrivals.regionEvent(RegionEvent(id: region3.id, kind: .entered, at: h3.clock.now()))
    h3.clock.advance(by: 180)
    #expect(h3.reminders(h3.arrivals.motionChanged(still: false)).isEmpty)
    #expect(h3.reminders(h3.arrivals.regionEvent(RegionEvent(id: region3.id, kind: .entered, at: h3.clock.now()))) == ["Buy milk"])
  }

  @Test func anEdgeExitAfterLongStillnessAsksNoWakeUpFix() throws {
    let h = ArrivalHarness()
    try crowded(h)
    _ = h.arrivals.motionChanged(still: true)
    h.clock.advance(by: ArrivalConfig().session.stillnessVeto + 1)
    let events = try edgeExit(h)
    #expect(!events.isEmpty && events.allSatisfy { if case .planKept = $0 { true } else { false } }, "\(events)")
    #expect(singleFixes(h) == 0)
  }
}
