import Domain
import Engine
import Foundation
import Geofencing
import TestSupport
import Testing

/// What the engine makes of the motion history: long stillness vetoes the
/// OS's crossings, and (with `muteWhileStill`) takes the regions it vetoed
/// off the OS until the device moves.
@Suite struct ArrivalStillnessTests {
  /// Fires on the OS's entry (so a crossing let through is a reminder),
  /// watching "Buy milk" 1 km north of home.
  func watchingMilk(mute: Bool, movementWatch: Bool = false, watchCharge: TimeInterval = 0, allowance: TimeInterval? = nil) throws -> (ArrivalHarness, PlannedRegion) {
    var config = ArrivalConfig()
    config.session.confirmArrivals = false
    config.coverage.muteWhileStill = mute
    if let allowance { config.session.allowance = allowance }
    let h = ArrivalHarness(config: config, movementWatch: movementWatch, watchCharge: watchCharge)
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    return (h, try #require(h.region(of: milk)))
  }

  func stillPastTheVeto(_ h: ArrivalHarness) {
    _ = h.arrivals.motionChanged(still: true)
    h.clock.advance(by: ArrivalConfig().session.stillnessVeto + 1)
  }

  /// The app reads the history only when it wakes: a stillness that began
  /// after the one it holds means the device moved while it slept, and a
  /// crossing now is not the OS's position wandering.
  @Test func aLaterStillnessMeansTheDeviceMovedInBetween() throws {
    let (h, region) = try watchingMilk(mute: false)
    stillPastTheVeto(h)
    _ = h.arrivals.motionChanged(still: true, since: h.clock.now().addingTimeInterval(-60))
    let events = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.reminders(events) == ["Buy milk"], "\(events)")
  }

  @Test func aStillnessReadAgainWithoutASinceKeepsWhenItBegan() throws {
    let (h, region) = try watchingMilk(mute: false)
    stillPastTheVeto(h)
    _ = h.arrivals.motionChanged(still: true)
    let events = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.reminders(events).isEmpty, "\(events)")
  }

  @Test func byDefaultAVetoedRegionStaysOnTheOS() throws {
    let (h, region) = try watchingMilk(mute: false)
    stillPastTheVeto(h)
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.monitor.monitoredRegions().contains(region.id))
  }

  /// The default on a phone that can watch for movement (live updates):
  /// a vetoed region leaves the OS, one watch starts, and when the device
  /// moves the region is back and the watch ends.
  @Test func aPhoneThatWatchesForMovementTakesVetoedRegionsOffUntilItMoves() throws {
    let (h, region) = try watchingMilk(mute: false, movementWatch: true)
    stillPastTheVeto(h)
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(!h.monitor.monitoredRegions().contains(region.id))
    #expect(h.precise.watch.withLock { $0 } == (true, 1))
    h.clock.advance(by: 300)
    _ = h.arrivals.motionChanged(still: false)
    #expect(h.monitor.monitoredRegions().contains(region.id))
    #expect(h.precise.watch.withLock { $0 } == (false, 1), "the watch ends once the device moved")
  }

  /// A watch by live updates costs GPS: it is charged to the allowance, and
  /// an allowance that cannot pay it keeps the region on the OS unwatched.
  @Test func aWatchThatCostsGPSIsChargedAndOnlyStartedWhenTheAllowancePays() throws {
    let (h, region) = try watchingMilk(mute: false, movementWatch: true, watchCharge: 10)
    stillPastTheVeto(h)
    let before = h.arrivals.currentBudget.available(at: h.clock.now(), config: SessionConfig())
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.precise.watch.withLock { $0 } == (true, 1))
    #expect(h.arrivals.currentBudget.available(at: h.clock.now(), config: SessionConfig()) == before - 10)
    var poor = SessionConfig()
    poor.allowance = 8
    let (p, kept) = try watchingMilk(mute: false, movementWatch: true, watchCharge: 10, allowance: poor.allowance)
    stillPastTheVeto(p)
    let events = p.arrivals.regionEvent(RegionEvent(id: kept.id, kind: .entered, at: p.clock.now()))
    #expect(p.monitor.monitoredRegions().contains(kept.id), "\(events)")
    #expect(p.precise.watch.withLock { $0.started } == 0)
    #expect(p.arrivals.currentBudget.available(at: p.clock.now(), config: poor) == 8)
  }

  /// Without a watch (the OwnTracks phones) nothing is taken off by default.
  @Test func withoutAWatchTheDefaultKeepsVetoedRegions() throws {
    let (h, region) = try watchingMilk(mute: false, movementWatch: false)
    stillPastTheVeto(h)
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.monitor.monitoredRegions().contains(region.id))
    #expect(h.precise.watch.withLock { $0.started } == 0)
  }

  @Test func aMutedRegionLeavesTheOSUntilTheDeviceMovesAndItsStateIsAskedThen() throws {
    let (h, region) = try watchingMilk(mute: true)
    stillPastTheVeto(h)
    let vetoed = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.reminders(vetoed).isEmpty)
    #expect(!h.monitor.monitoredRegions().contains(region.id))
    // A replan while still keeps it off; the rest of the plan stays on.
    _ = h.arrivals.tasksChanged()
    #expect(!h.monitor.monitoredRegions().contains(region.id))
    #expect(h.monitor.monitoredRegions().contains { $0.hasPrefix("wh-zone:") }, "only the vetoed region is off")
    // Minutes later the device moves (at once, the crossing would be taken).
    h.clock.advance(by: 300)
    let before = h.monitor.calls.count
    let moved = h.arrivals.motionChanged(still: false)
    #expect(h.monitor.monitoredRegions().contains(region.id))
    #expect(h.monitor.calls.dropFirst(before).contains(.requestState(region.id)), "the person may be inside it by now")
    #expect(moved.contains(.stateRequested(region.id)), "\(moved)")
    // Back on, its entries count again.
    let entered = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.reminders(entered) == ["Buy milk"])
  }

  @Test func aMutedRegionComesBackWhenTheDeviceStoppedSomewhereElse() throws {
    let (h, region) = try watchingMilk(mute: true)
    stillPastTheVeto(h)
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    h.clock.advance(by: 1800)
    _ = h.arrivals.motionChanged(still: true, since: h.clock.now().addingTimeInterval(-120))
    #expect(h.monitor.monitoredRegions().contains(region.id))
  }

  @Test func theEdgeIsNeverMuted() throws {
    let h = ArrivalHarness(config: {
      var config = ArrivalConfig()
      config.coverage.muteWhileStill = true
      return config
    }())
    for i in 0..<16 { _ = try h.task("Errand \(i)", north: 400 + Double(i) * 300) }
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let edge = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .edge })
    stillPastTheVeto(h)
    _ = h.arrivals.regionEvent(RegionEvent(id: edge.id, kind: .exited, at: h.clock.now()))
    #expect(h.monitor.monitoredRegions().contains(edge.id))
  }
}
