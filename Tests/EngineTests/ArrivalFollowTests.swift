import Domain
import Engine
import Foundation
import Geofencing
import Testing

/// Following with reduced-accuracy updates where places are dense, visits
/// from the OS's visit monitoring, stops while following, and a motion
/// history read late. Driven by a manual clock.
@Suite struct ArrivalFollowTests {
  /// Places every 40 m from 200 m north: the plan's edge stops short of the
  /// 14th, so it is small and the engine follows.
  func dense(_ h: ArrivalHarness, radius: Double = 30) throws -> [ReminderTask] {
    let tasks = try (0..<20).map { try h.task("Errand \($0)", north: 200 + Double($0) * 40, radius: radius) }
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    return tasks
  }

  func singleFixes(_ h: ArrivalHarness) -> Int { h.precise.singleFixes.withLock { $0 } }

  func origin(_ h: ArrivalHarness) -> Coordinate? { h.arrivals.currentPlan.origin }

  @Test func aDensePlanIsFollowedWhileThePersonMovesAndNotWhileStill() throws {
    let h = ArrivalHarness()
    _ = try dense(h)
    let edge = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .edge })
    #expect(edge.radius <= FollowConfig().edgeRadius)
    #expect(h.precise.reducedFilter == FollowConfig().distanceFilter)
    #expect(h.arrivals.motionChanged(still: true) == [.following(false)])
    #expect(h.precise.reducedFilter == nil)
    #expect(h.arrivals.motionChanged(still: false) == [.following(true)])
    #expect(h.precise.reducedFilter != nil)
  }

  @Test func aSparsePlanOrFollowingTurnedOffUsesNoReducedUpdates() throws {
    let sparse = ArrivalHarness()
    for i in 0..<20 { try sparse.task("Errand \(i)", north: 600 + Double(i) * 150) }
    _ = sparse.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    #expect(sparse.precise.reducedFilter == nil, "the edge is over a kilometre: regions follow the person well enough")
    var config = ArrivalConfig()
    config.follow.enabled = false
    let off = ArrivalHarness(config: config)
    _ = try dense(off)
    #expect(off.precise.reducedFilter == nil)
  }

  /// A phone with no reduced-accuracy updates (an OwnTracks app) is
  /// neither followed nor asked for a position it cannot give.
  @Test func aPhoneWithoutReducedUpdatesIsNeverAskedForThem() throws {
    let h = ArrivalHarness(reducedUpdates: false)
    _ = try dense(h)
    #expect(h.precise.reducedFilter == nil)
    var config = ArrivalConfig()
    config.session.allowance = 0
    let spent = ArrivalHarness(config: config, reducedUpdates: false)
    for i in 0..<20 { try spent.task("Errand \(i)", north: 600 + Double(i) * 150) }
    _ = spent.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let edge = try #require(spent.arrivals.currentPlan.regions.first { $0.kind == .edge })
    spent.clock.advance(by: 600)
    #expect(spent.arrivals.regionEvent(RegionEvent(id: edge.id, kind: .exited, at: spent.clock.now())) == [.planKept("no tracking budget left for a wake-up fix")])
    #expect(spent.precise.reducedFilter == nil)
  }

  @Test func lowPowerModeStopsFollowing() throws {
    let h = ArrivalHarness()
    _ = try dense(h)
    #expect(h.arrivals.powerChanged(PowerState(battery: 0.9, lowPowerMode: true)).contains(.following(false)))
    #expect(h.precise.reducedFilter == nil)
  }

  @Test func aFollowedPositionInsideBeyondDoubtFiresWithoutGPS() throws {
    let h = ArrivalHarness()
    _ = try dense(h)
    // A wide place among the dense ones: a Wi-Fi position 65 m accurate at its centre leaves no doubt.
    let wide = try h.task("Pick up parcel", north: 260, east: 60, radius: 150)
    _ = h.arrivals.tasksChanged()
    h.clock.advance(by: 60)
    let events = h.arrivals.reducedFix(ArrivalHarness.point(north: 260, east: 60), accuracy: 65)
    #expect(h.reminders(events) == [wide.title])
    #expect(singleFixes(h) == 0)
    #expect(!h.precise.isOn)
  }

  @Test func aFollowedPositionInsideASmallPlaceAsksOneFixFirst() throws {
    let h = ArrivalHarness()
    let tasks = try dense(h)
    h.clock.advance(by: 60)
    let events = h.arrivals.reducedFix(ArrivalHarness.point(north: 200), accuracy: 65)
    #expect(h.reminders(events).isEmpty, "65 m accurate, 30 m radius: it may be next door")
    #expect(events.contains(.confirmationRequested("wh-follow")))
    #expect(singleFixes(h) == 1)
    #expect(h.reminders(h.arrivals.preciseFix(ArrivalHarness.point(north: 200), accuracy: 8)) == [tasks[0].title])
  }

  @Test func cellGradePositionsAreIgnored() throws {
    let h = ArrivalHarness()
    _ = try dense(h)
    h.clock.advance(by: 60)
    #expect(h.arrivals.reducedFix(ArrivalHarness.point(north: 200), accuracy: 1000).isEmpty)
    #expect(singleFixes(h) == 0)
  }

  /// `cellWakeAfter`: a plan left unmoved through a cell-grade stretch
  /// asks one wake-up fix, which moves it to where the person went.
  @Test func aPlanStaleThroughCellGradePositionsAsksOneWakeUpFixWhenAskedTo() throws {
    var config = ArrivalConfig()
    config.follow.cellWakeAfter = 120
    let h = ArrivalHarness(config: config)
    _ = try dense(h)
    h.clock.advance(by: 60)
    #expect(h.arrivals.reducedFix(ArrivalHarness.point(north: 0, east: 300), accuracy: 1000).isEmpty, "the plan is a minute old")
    #expect(singleFixes(h) == 0)
    h.clock.advance(by: 70)
    #expect(h.arrivals.reducedFix(ArrivalHarness.point(north: 0, east: 300), accuracy: 1000) == [.wakeFixRequested])
    #expect(singleFixes(h) == 1)
    h.clock.advance(by: 5)
    #expect(h.arrivals.reducedFix(ArrivalHarness.point(north: 0, east: 350), accuracy: 1000).isEmpty, "one fix is on its way")
    let there = ArrivalHarness.point(north: 0, east: 400)
    #expect(h.arrivals.preciseFix(there, accuracy: 8).contains { if case .planned = $0 { true } else { false } })
    #expect(origin(h) == there)
    // Sitting still, the same stretch asks nothing.
    _ = h.arrivals.motionChanged(still: true)
    h.clock.advance(by: 600)
    #expect(h.arrivals.reducedFix(ArrivalHarness.point(north: 0, east: 900), accuracy: 1000).isEmpty)
    #expect(singleFixes(h) == 1)
  }

  @Test func aFollowedPositionAwayFromThePlanMovesIt() throws {
    let h = ArrivalHarness()
    _ = try dense(h)
    h.clock.advance(by: 60)
    let before = try #require(origin(h))
    let there = ArrivalHarness.point(north: 0, east: 400)
    let events = h.arrivals.reducedFix(there, accuracy: 40)
    #expect(events.contains { if case .planned(_, _, _, let reason) = $0 { reason == "followed the person" } else { false } })
    #expect(origin(h) == there && before != there)
    // Not again within 30 s, however far.
    h.clock.advance(by: 10)
    #expect(!h.arrivals.reducedFix(ArrivalHarness.point(north: 0, east: 800), accuracy: 40).contains {
      if case .planned = $0 { true } else { false }
    })
  }

  @Test func anEdgeExitWhileFollowedPositionsArriveAsksNoWakeUpFix() throws {
    let h = ArrivalHarness()
    _ = try dense(h)
    let edge = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .edge })
    // No followed position yet: the exit still asks its fix.
    #expect(h.arrivals.regionEvent(RegionEvent(id: edge.id, kind: .exited, at: h.clock.now())) == [.wakeFixRequested])
    let h2 = ArrivalHarness()
    _ = try dense(h2)
    let edge2 = try #require(h2.arrivals.currentPlan.regions.first { $0.kind == .edge })
    _ = h2.arrivals.reducedFix(ArrivalHarness.point(north: 20), accuracy: 40)
    h2.clock.advance(by: 30)
    let events = h2.arrivals.regionEvent(RegionEvent(id: edge2.id, kind: .exited, at: h2.clock.now()))
    #expect(events.allSatisfy { if case .planKept = $0 { true } else { false } } && !events.isEmpty, "\(events)")
    #expect(singleFixes(h2) == 0)
    // A minute and more without a followed position: the exit asks again.
    h2.clock.advance(by: 61)
    #expect(h2.arrivals.regionEvent(RegionEvent(id: edge2.id, kind: .exited, at: h2.clock.now())) == [.wakeFixRequested])
  }

  /// An approach zone entered while followed positions arrive: left to
  /// them by default, a session when `sessionOnApproach` asks for one.
  @Test(arguments: [false, true])
  func anApproachEnteredWhileFollowingStartsASessionOnlyWhenAskedTo(sessionOnApproach: Bool) throws {
    var config = ArrivalConfig()
    config.follow.sessionOnApproach = sessionOnApproach
    let h = ArrivalHarness(config: config)
    _ = try dense(h)
    let zone = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .approach })
    _ = h.arrivals.reducedFix(ArrivalHarness.point(north: 20), accuracy: 40)
    h.clock.advance(by: 10)
    let events = h.arrivals.regionEvent(RegionEvent(id: zone.id, kind: .entered, at: h.clock.now()))
    let started = events.contains { if case .sessionStarted = $0 { true } else { false } }
    #expect(started == sessionOnApproach, "\(events)")
    #expect(h.precise.isOn == sessionOnApproach)
  }

  /// With `approachWindow` set, an approach zone entered while following
  /// asks the OS for every position (`approachFilter`) for that long, a
  /// second entry meanwhile extends it, and then the usual filter is back;
  /// off (the default), the filter never changes.
  @Test(arguments: [0.0, 120.0])
  func anApproachEnteredWhileFollowingNarrowsTheFilterForItsWindow(window: TimeInterval) throws {
    var config = ArrivalConfig()
    config.follow.approachWindow = window
    config.follow.approachFilter = 0
    let h = ArrivalHarness(config: config)
    _ = try dense(h)
    let zone = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .approach })
    _ = h.arrivals.reducedFix(ArrivalHarness.point(north: 20), accuracy: 40)
    h.clock.advance(by: 10)
    _ = h.arrivals.regionEvent(RegionEvent(id: zone.id, kind: .entered, at: h.clock.now()))
    let usual = config.follow.distanceFilter
    #expect(h.precise.reducedFilter == (window > 0 ? 0 : usual))
    h.clock.advance(by: 100)
    _ = h.arrivals.reducedFix(ArrivalHarness.point(north: 25), accuracy: 40)
    _ = h.arrivals.regionEvent(RegionEvent(id: zone.id, kind: .entered, at: h.clock.now()))
    h.clock.advance(by: 100)
    _ = h.arrivals.tick()
    #expect(h.precise.reducedFilter == (window > 0 ? 0 : usual), "the second entry extended the window")
    h.clock.advance(by: 30)
    _ = h.arrivals.tick()
    #expect(h.precise.reducedFilter == usual)
    #expect(!h.precise.isOn, "no GPS for it")
  }

  @Test func stoppingNearAPlaceWhileFollowingAsksOneFix() throws {
    let h = ArrivalHarness()
    let tasks = try dense(h)
    _ = h.arrivals.reducedFix(ArrivalHarness.point(north: 130), accuracy: 40)
    // The history says "still" two minutes later; the last followed position is 70 m short of the first place.
    h.clock.advance(by: 150)
    let events = h.arrivals.motionChanged(still: true)
    #expect(events.contains(.confirmationRequested("wh-stop")))
    #expect(singleFixes(h) == 1)
    #expect(h.reminders(h.arrivals.preciseFix(ArrivalHarness.point(north: 205), accuracy: 8)) == [tasks[0].title])
  }

  /// `silenceAfter`: followed positions that stop coming near a place ask
  /// one fix, once per silence; off, the silence asks nothing.
  @Test(arguments: [0.0, 60.0])
  func followedPositionsFallingSilentNearAPlaceAskOneFix(silence: TimeInterval) throws {
    var config = ArrivalConfig()
    config.follow.silenceAfter = silence
    let h = ArrivalHarness(config: config)
    let tasks = try dense(h)
    // 50 m short of the first place (30 m radius), 40 m accurate: its circle reaches it.
    _ = h.arrivals.reducedFix(ArrivalHarness.point(north: 150), accuracy: 40)
    h.clock.advance(by: 30)
    #expect(h.arrivals.tick().isEmpty, "a walker's next position is still on its way")
    h.clock.advance(by: 31)
    let events = h.arrivals.tick()
    guard silence > 0 else {
      #expect(!events.contains(.confirmationRequested("wh-silence")))
      return #expect(singleFixes(h) == 0)
    }
    #expect(events.contains(.confirmationRequested("wh-silence")))
    #expect(singleFixes(h) == 1)
    #expect(h.reminders(h.arrivals.preciseFix(ArrivalHarness.point(north: 205), accuracy: 8)) == [tasks[0].title])
    h.clock.advance(by: 120)
    _ = h.arrivals.tick()
    #expect(singleFixes(h) == 1, "one fix a silence")
  }

  @Test func aVisitUnderWayNearAPlaceAsksOneFixAndAnEndedOneNothing() throws {
    let h = ArrivalHarness()
    let milk = try h.task("Buy milk", north: 3000, radius: 60)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    h.clock.advance(by: 600)
    let there = ArrivalHarness.point(north: 3040)
    #expect(h.arrivals.visitReported(there, accuracy: 65, departed: h.clock.now()).isEmpty)
    #expect(singleFixes(h) == 0)
    let events = h.arrivals.visitReported(there, accuracy: 65, departed: nil)
    #expect(events.contains { if case .planned(_, _, _, let reason) = $0 { reason == "a visit began" } else { false } })
    #expect(events.contains(.confirmationRequested("wh-visit")))
    #expect(h.reminders(h.arrivals.preciseFix(ArrivalHarness.point(north: 3010), accuracy: 8)) == [milk.title])
  }

  /// A stay the OS places only by a cell tower says where to look too
  /// vaguely to pick places, but a stay is where errands happen: one fix
  /// finds where it is, moves the plan there and answers the places it
  /// reaches; a second stay while that fix is on its way asks nothing more.
  @Test func aCoarselyPlacedVisitAsksOneFixThatFindsThePlace() throws {
    let h = ArrivalHarness()
    let milk = try h.task("Buy milk", north: 3000, radius: 60)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    h.clock.advance(by: 600)
    // The cell position is 800 m off; the person is at the shop.
    let events = h.arrivals.visitReported(ArrivalHarness.point(north: 2200), accuracy: 1000, departed: nil)
    #expect(events.contains(.confirmationRequested("wh-visit")), "\(events)")
    #expect(singleFixes(h) == 1)
    _ = h.arrivals.visitReported(ArrivalHarness.point(north: 2300), accuracy: 1000, departed: nil)
    #expect(singleFixes(h) == 1, "one fix is on its way")
    let fixed = h.arrivals.preciseFix(ArrivalHarness.point(north: 3010), accuracy: 10)
    #expect(h.reminders(fixed) == [milk.title])
    #expect(fixed.contains { if case .planned(_, _, _, let reason) = $0 { reason == "a stay began" } else { false } })
    #expect(try #require(origin(h)).distance(to: ArrivalHarness.point(north: 3010)) < 1)
  }

  @Test func aCoarselyPlacedVisitFarFromEveryPlaceFiresNothing() throws {
    let h = ArrivalHarness()
    _ = try h.task("Buy milk", north: 3000, radius: 60)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    h.clock.advance(by: 600)
    _ = h.arrivals.visitReported(ArrivalHarness.point(north: 2500), accuracy: 1000, departed: nil)
    #expect(singleFixes(h) == 1)
    // The stay is 1.5 km from the shop: nothing fires, and no session starts for it.
    let fixed = h.arrivals.preciseFix(ArrivalHarness.point(north: 1500), accuracy: 10)
    #expect(h.reminders(fixed).isEmpty)
    #expect(!h.arrivals.sessionRunning)
    // With visits not listened to, the same stay asks nothing.
    var config = ArrivalConfig()
    config.follow.visits = false
    let off = ArrivalHarness(config: config)
    _ = try off.task("Buy milk", north: 3000, radius: 60)
    _ = off.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    #expect(off.arrivals.visitReported(ArrivalHarness.point(north: 2200), accuracy: 1000, departed: nil).isEmpty)
    #expect(singleFixes(off) == 0)
  }

  @Test func aStillnessReadLateCountsFromWhenItBegan() throws {
    let (h, region) = try ArrivalHarness.unconfirmedWatchingMilk()
    h.clock.advance(by: 3600)
    // A suspended app reads at this wake that the phone has been still for 20 minutes.
    _ = h.arrivals.motionChanged(still: true, since: h.clock.now().addingTimeInterval(-1200))
    let events = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    #expect(h.reminders(events).isEmpty)
    #expect(events.contains { if case .planKept = $0 { true } else { false } })
  }

  @Test func visitMonitoringStartsAtLaunchUnlessTurnedOff() throws {
    let h = ArrivalHarness()
    _ = try h.arrivals.launch()
    #expect(h.precise.visitsOn.withLock { $0 })
    var config = ArrivalConfig()
    config.follow.visits = false
    let off = ArrivalHarness(config: config)
    _ = try off.arrivals.launch()
    #expect(!off.precise.visitsOn.withLock { $0 })
  }

  /// Each significant change is a wake: with visits listened to, the engine
  /// does without them once it has a plan, unless asked; without visits
  /// nothing else would notice a missed edge exit, so it keeps listening.
  @Test(arguments: [(true, false, false), (true, true, true), (false, false, true)])
  func significantChangesGiveTheFirstPositionThenOnlyWhereNothingElseMovesCoverage(visits: Bool, asked: Bool, keeps: Bool) throws {
    var config = ArrivalConfig()
    config.follow.visits = visits
    config.follow.significantChanges = asked
    let h = ArrivalHarness(config: config)
    _ = try h.arrivals.launch()
    #expect(h.precise.significantOn.withLock { $0 }, "the first position comes from them")
    let events = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    #expect(events.contains { if case .planned = $0 { true } else { false } })
    #expect(h.precise.significantOn.withLock { $0 } == keeps)
  }

  /// A sparse plan whose allowance is spent: no GPS wake-up fix can be paid.
  func spentSparse() throws -> (ArrivalHarness, PlannedRegion) {
    var config = ArrivalConfig()
    config.session.allowance = 0
    let h = ArrivalHarness(config: config)
    for i in 0..<20 { try h.task("Errand \(i)", north: 600 + Double(i) * 150) }
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    #expect(h.precise.reducedFilter == nil, "sparse: not following")
    return (h, try #require(h.arrivals.currentPlan.regions.first { $0.kind == .edge }))
  }

  /// With the allowance spent, leaving the edge used to keep the plan for
  /// good; the OS's own position (no GPS, not charged) now replans.
  @Test func anEdgeExitTheAllowanceCannotPayIsPlacedByTheOSsOwnPosition() throws {
    let (h, edge) = try spentSparse()
    h.clock.advance(by: 600)
    let events = h.arrivals.regionEvent(RegionEvent(id: edge.id, kind: .exited, at: h.clock.now()))
    #expect(!events.contains(.wakeFixRequested))
    #expect(singleFixes(h) == 0)
    #expect(h.precise.reducedFilter != nil, "reduced-accuracy updates give the position")
    // A cell-grade position says too little; a Wi-Fi one 2 km on replans there.
    #expect(!h.arrivals.reducedFix(ArrivalHarness.point(north: 2000), accuracy: 1000).contains { if case .planned = $0 { true } else { false } })
    let placed = h.arrivals.reducedFix(ArrivalHarness.point(north: 2000), accuracy: 65)
    #expect(placed.contains { if case .planned(_, _, _, let reason) = $0 { reason == "left the coverage edge" } else { false } })
    #expect(try #require(origin(h)).distance(to: ArrivalHarness.point(north: 2000)) < 1)
    #expect(h.precise.reducedFilter == nil, "not following a sparse plan: the updates stop")
  }

  @Test func aCoarseWakeUpThatGetsNoPositionGivesUpAfterAMinute() throws {
    let (h, edge) = try spentSparse()
    h.clock.advance(by: 600)
    _ = h.arrivals.regionEvent(RegionEvent(id: edge.id, kind: .exited, at: h.clock.now()))
    #expect(h.precise.reducedFilter != nil)
    h.clock.advance(by: 30)
    _ = h.arrivals.tick()
    #expect(h.precise.reducedFilter != nil)
    h.clock.advance(by: 31)
    _ = h.arrivals.tick()
    #expect(h.precise.reducedFilter == nil)
    // A later exit asks again.
    _ = h.arrivals.regionEvent(RegionEvent(id: edge.id, kind: .exited, at: h.clock.now()))
    #expect(h.precise.reducedFilter != nil)
  }
}
