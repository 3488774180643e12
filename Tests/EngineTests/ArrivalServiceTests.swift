import Domain
import Engine
import FileStore
import Foundation
import Geofencing
import Notifications
import Testing
import TestSupport

@Suite struct ArrivalServiceTests {
  @Test func aPlanIsInstalledAndRegionsAlreadyContainingThePersonAreAskedFor() throws {
    let h = ArrivalHarness()
    try h.task("Near", north: 50)
    try h.task("Far", north: 3000)
    let events = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    guard case .planned(let plan, let added, _, _)? = events.first else {
      Issue.record("no plan: \(events)")
      return
    }
    #expect(plan.destinations.count == 2)
    #expect(Set(added) == h.monitor.monitoredRegions())
    let near = try #require(h.region(of: try h.engine.tasks.get("Near")))
    #expect(h.monitor.calls.contains(.requestState(near.id)))
    #expect(events.contains(.stateRequested(near.id)))
  }

  /// On CLMonitor the regions are declared instead: the edge inside (it is
  /// centred where the plan was made), every other region outside, so the
  /// OS says when it finds the person inside one and nothing is asked.
  @Test func aMonitorThatDeclaresStatesIsAskedNothing() throws {
    // More places than regions, so the plan has an edge.
    let h = ArrivalHarness(capacity: 4, declaresInitialState: true)
    try h.task("Near", north: 50)
    for index in 1...6 { try h.task("Far \(index)", north: 3000 * Double(index)) }
    let events = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    guard case .planned(let plan, _, _, _)? = events.first else {
      Issue.record("no plan: \(events)")
      return
    }
    let declared = h.monitor.calls.compactMap { call -> (String, Bool)? in
      if case .startAssuming(let id, let inside) = call { return (id, inside) }
      return nil
    }
    #expect(declared.count == plan.regions.count && h.monitor.calls.count == plan.regions.count, "every start declared: \(h.monitor.calls)")
    for (id, inside) in declared {
      #expect(inside == (plan.region(id)?.kind == .edge), "\(id) declared \(inside ? "inside" : "outside")")
    }
    #expect(declared.contains { $0.1 }, "the plan has an edge")
    #expect(!events.contains { if case .stateRequested = $0 { true } else { false } })
  }

  /// The design card's rule (`confirmArrivals` off): the OS's entry fires.
  @Test func unconfirmedEnteringAnArrivalRegionFiresOncePerVisit() throws {
    let (h, region) = try ArrivalHarness.unconfirmedWatchingMilk()
    #expect(h.reminders(h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))) == ["Buy milk"])
    #expect(h.reminders(h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .inside, at: h.clock.now()))).isEmpty)
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .exited, at: h.clock.now()))
    // An entry right after leaving is the OS delivering late: no second reminder.
    #expect(h.reminders(h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))).isEmpty)
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .exited, at: h.clock.now()))
    h.clock.advance(by: 301)
    #expect(h.reminders(h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))) == ["Buy milk"])
    #expect(h.sink.notifications.count == 2)
    #expect(h.sink.notifications[0].category.buttons.map(\.title) == ["Mark Done", "Remind Later"])
  }

  @Test func markDoneDropsEveryRegionOfTheTaskOnTheNextPlan() throws {
    let h = ArrivalHarness()
    let milk = try h.engine.tasks.add(
      title: "Buy milk",
      locations: [
        LocationSpec(target: .coordinate(ArrivalHarness.point(north: 800)), radius: 100),
        LocationSpec(target: .coordinate(ArrivalHarness.point(north: -900)), radius: 80),
      ])
    try h.task("Post", north: 2000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    #expect(h.arrivals.currentPlan.destinations.filter { $0.task == milk.id }.count == 2)
    _ = try h.engine.tasks.done(milk.id.rawValue)
    let events = h.arrivals.tasksChanged()
    #expect(h.arrivals.currentPlan.destinations.allSatisfy { $0.task != milk.id })
    guard case .planned(_, _, let removed, _)? = events.first else {
      Issue.record("no replan")
      return
    }
    #expect(removed.filter { $0.hasPrefix("wh:\(milk.id):") }.count == 2)
    #expect(h.monitor.monitoredRegions().allSatisfy { !$0.hasPrefix("wh:\(milk.id):") })
  }

  @Test func aSnoozedTaskDoesNotFireAndComesBackAfterward() throws {
    let h = ArrivalHarness()
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let region = try #require(h.region(of: milk))
    _ = try h.engine.tasks.later("Buy milk", for: 3600)
    #expect(h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now())).isEmpty, "no reminder, and no fix spent on it")
    #expect(h.precise.singleFixes.withLock { $0 } == 0)
    _ = h.arrivals.tasksChanged()
    #expect(h.region(of: milk) == nil, "a snoozed task leaves the plan")
    h.clock.advance(by: 3599)
    _ = h.arrivals.tick()
    #expect(h.region(of: milk) == nil)
    h.clock.advance(by: 1)
    _ = h.arrivals.tick()
    #expect(h.region(of: milk) == region, "it comes back when the snooze ends")
    #expect(h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now())) == [.confirmationRequested(region.id)])
    h.clock.advance(by: 5)
    #expect(h.reminders(h.arrivals.preciseFix(ArrivalHarness.point(north: 1000), accuracy: 10)) == ["Buy milk"])
  }

  @Test func anEventForAnUnknownRegionIsIgnoredAndLogged() {
    let h = ArrivalHarness()
    let events = h.arrivals.regionEvent(RegionEvent(id: "wh:gone:l1:00000000", kind: .entered, at: h.clock.now()))
    #expect(events == [.ignoredRegion("wh:gone:l1:00000000", reason: "not in the current plan")])
  }

  @Test func capacityAlreadyPartlyUsedIsRespected() throws {
    let h = ArrivalHarness(capacity: 20)
    for i in 0..<15 {
      try h.monitor.startMonitoring(PlannedRegion(id: "other:\(i)", kind: .arrival, center: ArrivalHarness.home, radius: 100, destinations: []))
    }
    for i in 0..<7 { try h.task("T\(i)", north: Double(i + 1) * 2000) }
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    #expect(h.monitor.monitoredRegions().count <= 20)
    #expect(h.monitor.monitoredRegions().filter { $0.hasPrefix("other:") }.count == 15)
    #expect(!h.arrivals.currentPlan.regions.isEmpty)
  }

  @Test func anApproachZoneStartsABudgetedSessionThatFiresAndStops() throws {
    let h = ArrivalHarness()
    let milk = try h.task("Buy milk", north: 1000, radius: 60)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let zone = try #require(h.region(of: milk, kind: .approach))
    let started = h.arrivals.regionEvent(RegionEvent(id: zone.id, kind: .entered, at: h.clock.now()))
    #expect(started.contains { if case .sessionStarted = $0 { return true } else { return false } })
    #expect(h.precise.isOn)
    var fired: [String] = []
    for step in 0..<60 {
      h.clock.advance(by: 1)
      fired += h.reminders(h.arrivals.preciseFix(ArrivalHarness.point(north: 800 + Double(step) * 5), accuracy: 8))
    }
    #expect(fired == ["Buy milk"])
    #expect(!h.precise.isOn, "the session stops once every destination is settled")
    #expect(!h.arrivals.sessionRunning)
    let spent = h.arrivals.currentBudget.spent(at: h.clock.now(), config: SessionConfig())
    #expect(spent > 0 && spent < 60)
    #expect(h.store.state().settings["tracking.budget"] != nil, "the budget is persisted")
  }

  /// A session resting its GPS while the place is far: on a phone that
  /// runs the engine itself (and is suspended when idle) reduced-accuracy
  /// updates keep the app running meanwhile, so its timer can resume the
  /// GPS; they stop again at the resume. Where the engine runs on a server
  /// (no reduced updates), nothing is held.
  @Test(arguments: [true, false])
  func aRestingSessionKeepsThePhonesAppRunning(ownApp: Bool) throws {
    let h = ArrivalHarness(reducedUpdates: ownApp)
    let milk = try h.task("Buy milk", north: 1000, radius: 60)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let zone = try #require(h.region(of: milk, kind: .approach))
    _ = h.arrivals.regionEvent(RegionEvent(id: zone.id, kind: .entered, at: h.clock.now()))
    var rested: Date?
    var seen: [ArrivalEvent] = []
    // Walking in from the zone's edge: the place is minutes away.
    let start = 1000 - zone.radius + 10
    for step in 0..<10 where rested == nil {
      h.clock.advance(by: 1)
      seen += h.arrivals.preciseFix(ArrivalHarness.point(north: start + Double(step) * 1.4), accuracy: 8)
      if !h.precise.isOn, h.arrivals.sessionRunning { rested = h.clock.now() }
    }
    try #require(rested != nil, "the session rests its GPS \(Int(zone.radius)) m out at a walk: \(seen)")
    #expect(h.precise.reducedFilter != nil || !ownApp, "held running by reduced updates")
    #expect(h.precise.reducedFilter == nil || ownApp, "nothing held where the engine runs on a server")
    for _ in 0..<600 where !h.precise.isOn && h.arrivals.sessionRunning {
      h.clock.advance(by: 1)
      _ = h.arrivals.tick()
    }
    #expect(h.precise.isOn, "resumed by its timer")
    #expect(h.precise.reducedFilter == nil, "the reduced updates end with the rest (not following: a sparse plan)")
  }

  @Test func aTaskDoneWhileItsSessionRunsStopsTheSession() throws {
    let h = ArrivalHarness()
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let zone = try #require(h.region(of: milk, kind: .approach))
    _ = h.arrivals.regionEvent(RegionEvent(id: zone.id, kind: .entered, at: h.clock.now()))
    #expect(h.arrivals.sessionRunning)
    _ = try h.engine.tasks.done("Buy milk")
    let events = h.arrivals.tasksChanged()
    #expect(events.contains { if case .sessionStopped(.settled, _) = $0 { return true } else { return false } })
    #expect(!h.precise.isOn)
  }

  @Test func heatTurningCriticalStopsTheSessionAndRefusesNewOnes() throws {
    let h = ArrivalHarness()
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let zone = try #require(h.region(of: milk, kind: .approach))
    _ = h.arrivals.regionEvent(RegionEvent(id: zone.id, kind: .entered, at: h.clock.now()))
    h.clock.advance(by: 5)
    let stopped = h.arrivals.powerChanged(PowerState(thermal: .critical))
    #expect(stopped.contains { if case .sessionStopped(.criticalHeat, _) = $0 { return true } else { return false } })
    h.clock.advance(by: 120)
    let refused = h.arrivals.regionEvent(RegionEvent(id: zone.id, kind: .entered, at: h.clock.now()))
    #expect(refused == [.sessionRefused("critical heat")])
  }

  @Test func relaunchMidSessionChargesTheWholeReservation() throws {
    let directory = NSTemporaryDirectory() + "whilehere-arrival-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let clock = ManualClock(Fixtures.epoch)
    var store: FileOperationStore? = try FileOperationStore(directory: directory, clock: clock)
    do {
      let h = ArrivalHarness(store: store, clock: clock)
      let milk = try h.task("Buy milk", north: 1000)
      _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
      let zone = try #require(h.region(of: milk, kind: .approach))
      _ = h.arrivals.regionEvent(RegionEvent(id: zone.id, kind: .entered, at: clock.now()))
      #expect(h.arrivals.sessionRunning)
      clock.advance(by: 20)
    }
    // The process dies here: no stop, no settle.
    store?.close()
    store = try FileOperationStore(directory: directory, clock: clock)
    let relaunched = ArrivalHarness(store: store, clock: clock)
    let events = try relaunched.arrivals.launch()
    #expect(events.contains { if case .degraded(let text) = $0 { return text.contains("interrupted") } else { return false } })
    #expect(relaunched.arrivals.currentBudget.spent(at: clock.now(), config: SessionConfig()) == 600)
    store?.close()
  }

  @Test func permissionsDegradeExplicitly() throws {
    let h = ArrivalHarness()
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let region = try #require(h.region(of: milk))
    let approximate = h.arrivals.permissionsChanged(Permissions(preciseLocation: false))
    #expect(approximate.contains { if case .degraded(let text) = $0 { return text.contains("approximate") } else { return false } })
    #expect(h.monitor.monitoredRegions().isEmpty, "approximate location turns region monitoring off")
    _ = h.arrivals.permissionsChanged(Permissions(notifications: false))
    h.clock.advance(by: 600)
    _ = h.arrivals.tasksChanged()
    _ = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: h.clock.now()))
    h.clock.advance(by: 5)
    let events = h.arrivals.preciseFix(ArrivalHarness.point(north: 1000), accuracy: 10)
    #expect(events.contains { if case .reminder(.suppressed) = $0 { return true } else { return false } })
    #expect(h.sink.notifications.isEmpty)
  }
}
