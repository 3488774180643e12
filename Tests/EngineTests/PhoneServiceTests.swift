import Domain
import Engine
import Foundation
import Geofencing
import Notifications
import Persistence
import Testing
import TestSupport

/// A phone over the network: its own location reports fire reminders, the
/// plan travels back as waypoint commands, and late reports fire nothing.
@Suite struct PhoneServiceTests {
  struct Phone {
    let clock = ManualClock(Fixtures.epoch)
    let store: InMemoryOperationStore
    let engine: Engine
    let sink = RecordingNotificationSink()
    let phone: PhoneService

    init(capacity: Int = 20, config: ArrivalConfig = ArrivalConfig()) {
      store = InMemoryOperationStore(replica: Fixtures.replica("phone"), clock: clock)
      engine = Engine(context: EngineContext(store: store, clock: clock, ids: SequentialIDGenerator(prefix: "t")))
      phone = PhoneService(context: engine.context, scheduler: NotificationScheduler(sink: sink), config: config, capacity: capacity)
    }

    func at(north meters: Double, accuracy: Double? = 10, age: TimeInterval = 0) -> PhoneReport {
      .location(PhoneFix(coordinate: ArrivalHarness.point(north: meters), accuracy: accuracy, at: clock.now().addingTimeInterval(-age)))
    }
  }

  @Test func aReportInsideAPlaceFiresOnceAndSendsThePlan() throws {
    let p = Phone()
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 0)), radius: 150)])
    let far = p.phone.receive(p.at(north: 2000))
    #expect(far.reminders.isEmpty)
    guard far.commands.first == .clearRegions, case .setRegions(let regions)? = far.commands.dropFirst().first else {
      Issue.record("the first answer must install the plan: \(far.commands)")
      return
    }
    #expect(!regions.isEmpty)
    p.clock.advance(by: 60)
    let near = p.phone.receive(p.at(north: 20))
    #expect(near.reminders.map(\.title) == ["Buy milk"])
    #expect(p.sink.notifications.count == 1)
    p.clock.advance(by: 10)
    #expect(p.phone.receive(p.at(north: 25)).reminders.isEmpty, "one reminder per visit")
  }

  @Test func aLateOrCoarseReportFiresNothing() throws {
    let p = Phone()
    _ = try p.engine.tasks.add(title: "Post letter", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 0)), radius: 60)])
    #expect(p.phone.receive(p.at(north: 10, age: 3600)).reminders.isEmpty, "an hour-old fix: the person has left")
    #expect(p.phone.receive(p.at(north: 10, accuracy: 800)).reminders.isEmpty, "800 m accuracy cannot place a 60 m radius")
    #expect(p.phone.receive(p.at(north: 10, accuracy: nil)).reminders.isEmpty, "unknown accuracy is taken as 100 m, too coarse for 60 m")
    #expect(p.phone.receive(p.at(north: 10, accuracy: 15)).reminders.map(\.title) == ["Post letter"])
  }

  @Test func aReportImplausiblyFarFromTheLastFiresNothingAndKeepsThePlan() throws {
    let p = Phone()
    _ = try p.engine.tasks.add(title: "Post letter", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 3000)), radius: 100)])
    _ = p.phone.receive(p.at(north: 0))
    let planned = p.phone.arrival.currentPlan
    p.clock.advance(by: 5)
    // 3 km in 5 s with 10 m accuracy: a GPS outlier, as real traces have them.
    let outlier = p.phone.receive(p.at(north: 3000))
    #expect(outlier.reminders.isEmpty)
    #expect(p.phone.arrival.currentPlan == planned, "an outlier does not move the plan")
    p.clock.advance(by: 5)
    #expect(p.phone.receive(p.at(north: 5)).reminders.isEmpty)
    // Walking there for real fires.
    p.clock.advance(by: 2400)
    #expect(p.phone.receive(p.at(north: 2990)).reminders.map(\.title) == ["Post letter"])
  }

  @Test func outliersInARowMeanTheEarlierReportWasTheOutlier() throws {
    let p = Phone()
    _ = try p.engine.tasks.add(title: "Post letter", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 3000)), radius: 100)])
    _ = p.phone.receive(p.at(north: 0))
    var fired: [String] = []
    for _ in 0..<4 {
      p.clock.advance(by: 5)
      fired += p.phone.receive(p.at(north: 3000)).reminders.map(\.title)
    }
    #expect(fired == ["Post letter"], "the track starts over from the reports that agree with each other")
  }

  @Test func duringASessionOneReportInsideIsNotEnough() throws {
    let p = Phone()
    _ = try enterZone(p, remoteConfiguration: true)
    var reminders: [String] = []
    // The place is 1000 m north with a 100 m radius: 950 is the first report inside.
    for (step, north) in [850.0, 880, 950, 990].enumerated() {
      // Reports well within the session's no-fix timeout: the session runs throughout.
      p.clock.advance(by: step == 0 ? 5 : 10)
      let reply = p.phone.receive(p.at(north: north), remoteConfiguration: true)
      if north == 950 { #expect(reply.reminders.isEmpty, "a single good report inside: the session waits for a second") }
      reminders += reply.reminders.map(\.title)
    }
    #expect(reminders == ["Buy milk"])
  }

  @Test func finishingATaskEmptiesThePhonesRegionsOnTheNextAnswer() throws {
    let p = Phone()
    let task = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 800)), radius: 100)])
    _ = p.phone.receive(p.at(north: 0))
    _ = try p.engine.tasks.done(task.id.rawValue)
    _ = p.phone.tasksChanged()
    let next = p.phone.receive(.lastWill(p.clock.now()))
    #expect(next.commands == [.clearRegions, .setRegions([])])
    #expect(p.phone.receive(.lastWill(p.clock.now())).commands.isEmpty)
  }

  @Test func aPhonesOwnTransitionFiresTheRegionItNames() throws {
    let p = Phone()
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 3000)), radius: 100)])
    guard case .setRegions(let regions)? = p.phone.receive(p.at(north: 0)).commands.last,
      let arrival = regions.first(where: { $0.id.hasPrefix("wh:") })
    else {
      Issue.record("no arrival region was sent")
      return
    }
    // Forty minutes' walk later, Android names it by stamp only. The entry asks for a report to confirm it…
    p.clock.advance(by: 2400)
    let reply = p.phone.receive(.transition(PhoneTransition(entered: true, regionID: nil, stamp: arrival.stamp, name: nil, fix: nil, at: p.clock.now())))
    #expect(reply.reminders.isEmpty)
    #expect(reply.commands.contains(.reportLocation))
    // …and the report inside fires it.
    p.clock.advance(by: 5)
    #expect(p.phone.receive(p.at(north: 3000)).reminders.map(\.title) == ["Buy milk"])
    let unknown = p.phone.receive(.transition(PhoneTransition(entered: true, regionID: "Home", stamp: 5, name: "Home", fix: nil, at: p.clock.now())))
    #expect(unknown.reminders.isEmpty)
  }

  /// Four places north, watched two at a time: the plan has a coverage
  /// edge around the first report. Returns the edge.
  func planWithEdge(_ p: Phone) throws -> PlannedRegion? {
    for meters in [300.0, 600, 900, 1200] {
      _ = try p.engine.tasks.add(title: "Errand \(Int(meters))", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: meters)), radius: 50)])
    }
    _ = p.phone.receive(p.at(north: 0))
    return p.phone.arrival.currentPlan.regions.first { $0.kind == .edge }
  }

  func reasons(_ events: [ArrivalEvent]) -> [String] {
    events.compactMap { if case .planned(_, _, _, let reason) = $0 { reason } else { nil } }
  }

  @Test func aReportPastTheCoverageEdgeMovesThePlanAndIsTheWakeUpFix() throws {
    let p = Phone(capacity: 3)
    guard let edge = try planWithEdge(p) else {
      Issue.record("no coverage edge in the plan")
      return
    }
    // South, away from the places, sooner than a significant change would replan.
    p.clock.advance(by: 60)
    let out = p.phone.receive(p.at(north: -(edge.radius + 50)))
    #expect(reasons(out.events) == ["left the coverage edge"])
    #expect(!out.commands.contains(.reportLocation), "the report that crossed the edge answers the wake-up fix it asks for")
    #expect(p.phone.arrival.currentPlan.regions.first { $0.kind == .edge }?.id != edge.id)
    // The new edge was made around this report: the next one there crosses nothing.
    p.clock.advance(by: 10)
    #expect(reasons(p.phone.receive(p.at(north: -(edge.radius + 55))).events).isEmpty)
  }

  @Test func aReportTooCoarseForTheEdgeOrInsideItKeepsThePlan() throws {
    let p = Phone(capacity: 3)
    guard let edge = try planWithEdge(p) else {
      Issue.record("no coverage edge in the plan")
      return
    }
    p.clock.advance(by: 60)
    #expect(reasons(p.phone.receive(p.at(north: -(edge.radius - 30))).events).isEmpty, "still inside the edge")
    p.clock.advance(by: 10)
    #expect(reasons(p.phone.receive(p.at(north: -(edge.radius + 50), accuracy: edge.radius + 1)).events).isEmpty, "too coarse to tell")
    #expect(p.phone.arrival.currentPlan.regions.first { $0.kind == .edge }?.id == edge.id)
  }

  /// Enters the approach zone of a task 1 km north: the phone's own
  /// transition starts a precise session.
  func enterZone(_ p: Phone, remoteConfiguration: Bool, fix: PhoneReport? = nil) throws -> PhoneService.Reply {
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 1000)), radius: 100)])
    let first = p.phone.receive(fix ?? p.at(north: 0), remoteConfiguration: remoteConfiguration)
    guard case .setRegions(let regions)? = first.commands.first(where: { if case .setRegions = $0 { true } else { false } }),
      let zone = regions.first(where: { $0.id.hasPrefix("wh-zone:") })
    else {
      Issue.record("no approach zone was sent: \(first.commands)")
      return first
    }
    p.clock.advance(by: 30)
    return p.phone.receive(
      .transition(PhoneTransition(entered: true, regionID: zone.id, stamp: nil, name: nil, fix: nil, at: p.clock.now())), remoteConfiguration: remoteConfiguration)
  }

  @Test func aSessionSwitchesAnAllowedPhoneToMoveModeAndBackToItsOwnMode() throws {
    let p = Phone()
    let entered = try enterZone(p, remoteConfiguration: true)
    let config = SessionConfig()
    #expect(entered.commands.contains(.setMonitoring(.move(interval: Int(config.remoteInterval), displacement: Int(config.remoteDisplacement)))), "\(entered.commands)")
    #expect(entered.commands.contains(.reportLocation))
    // A phone over the network is waited for longer than a native GPS.
    p.clock.advance(by: config.noFixTimeout + 5)
    _ = p.phone.tick()
    #expect(p.phone.arrival.sessionRunning, "still within remoteNoFixTimeout")
    // Fixes stop: the session ends on the next tick, and the next answer puts the phone back.
    p.clock.advance(by: config.remoteNoFixTimeout - config.noFixTimeout)
    _ = p.phone.tick()
    #expect(!p.phone.arrival.sessionRunning)
    let after = p.phone.receive(p.at(north: 200), remoteConfiguration: true)
    #expect(after.commands.contains(.setMonitoring(PhoneMonitoring(mode: PhoneMonitoring.significant))), "\(after.commands)")
    p.clock.advance(by: 10)
    #expect(!p.phone.receive(p.at(north: 210), remoteConfiguration: true).commands.contains { if case .setMonitoring = $0 { true } else { false } }, "once")
  }

  @Test func aPhoneNotAllowedIsOnlyAskedForAReport() throws {
    let p = Phone()
    let entered = try enterZone(p, remoteConfiguration: false)
    #expect(entered.commands.contains(.reportLocation))
    #expect(!entered.commands.contains { if case .setMonitoring = $0 { true } else { false } }, "\(entered.commands)")
  }

  @Test func thePhonesOwnModeIsWhatItReportedBeforeTheSession() throws {
    let p = Phone()
    let manual = PhoneReport.location(PhoneFix(coordinate: ArrivalHarness.point(north: 0), accuracy: 10, at: p.clock.now(), monitoring: PhoneMonitoring.manual))
    _ = try enterZone(p, remoteConfiguration: true, fix: manual)
    p.clock.advance(by: SessionConfig().remoteNoFixTimeout + 5)
    _ = p.phone.tick()
    // While switched, the phone says "move": that is ours, not its own mode.
    let during = PhoneReport.location(PhoneFix(coordinate: ArrivalHarness.point(north: 100), accuracy: 10, at: p.clock.now(), monitoring: PhoneMonitoring.move))
    #expect(p.phone.receive(during, remoteConfiguration: true).commands.contains(.setMonitoring(PhoneMonitoring(mode: PhoneMonitoring.manual))))
  }

  @Test func withdrawingTheOptInMidSessionPutsThePhoneBack() throws {
    let p = Phone()
    _ = try enterZone(p, remoteConfiguration: true)
    p.clock.advance(by: 5)
    let reply = p.phone.receive(p.at(north: 300), remoteConfiguration: false)
    #expect(reply.commands.contains(.setMonitoring(PhoneMonitoring(mode: PhoneMonitoring.significant))), "\(reply.commands)")
  }

  @Test func aLowBatteryTheAppReportsShortensSessions() throws {
    let p = Phone()
    let low = PhoneReport.location(PhoneFix(coordinate: ArrivalHarness.point(north: 0), accuracy: 10, at: p.clock.now(), battery: 10, charging: false))
    let entered = try enterZone(p, remoteConfiguration: true, fix: low)
    let granted = entered.events.compactMap { event -> TimeInterval? in
      if case .sessionStarted(_, let granted, _) = event { return granted }
      return nil
    }
    #expect(granted == [SessionConfig().reducedMaxDuration], "\(entered.events)")
  }

  func report(north meters: Double, accuracy: Double, stationary: Bool?, _ p: Phone, monitoring: Int? = nil) -> PhoneReport {
    .location(PhoneFix(coordinate: ArrivalHarness.point(north: meters), accuracy: accuracy, at: p.clock.now(), monitoring: monitoring, stationary: stationary))
  }

  /// Sitting at home, the OS's Wi-Fi position wanders into a shop 150 m
  /// away: with the phone saying it has been stationary for ten minutes,
  /// that position fires nothing. A GPS-grade report there still would.
  @Test func aCoarseReportAfterLongStillnessFiresNothing() throws {
    let p = Phone()
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 150)), radius: 100)])
    _ = p.phone.receive(report(north: 0, accuracy: 65, stationary: true, p))
    p.clock.advance(by: SessionConfig().stillnessVeto + 60)
    let wandered = p.phone.receive(report(north: 140, accuracy: 65, stationary: true, p))
    #expect(wandered.reminders.isEmpty, "\(wandered.events)")
    #expect(wandered.events.contains { if case .planKept(let why) = $0 { why.contains("stillness") } else { false } }, "\(wandered.events)")
    p.clock.advance(by: 30)
    #expect(p.phone.receive(report(north: 150, accuracy: 8, stationary: true, p)).reminders.map(\.title) == ["Buy milk"], "a GPS fix inside counts")
  }

  /// The daemon started while the person sat at home and the phone's first
  /// report was a cell position too coarse to plan from: the next Wi-Fi
  /// position, after long stillness, makes the first plan (the regions go
  /// to the phone) though it fires nothing, even inside a place.
  @Test func withNoPlanYetACoarseReportAfterStillnessStillPlans() throws {
    let p = Phone()
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 150)), radius: 100)])
    let cell = p.phone.receive(report(north: 0, accuracy: 1000, stationary: true, p))
    #expect(!cell.commands.contains { if case .setRegions = $0 { true } else { false } }, "1000 m plans nothing")
    p.clock.advance(by: SessionConfig().stillnessVeto + 60)
    let wifi = p.phone.receive(report(north: 140, accuracy: 65, stationary: true, p))
    #expect(wifi.commands.contains { if case .setRegions = $0 { true } else { false } }, "\(wifi.commands) \(wifi.events)")
    #expect(wifi.reminders.isEmpty, "still for long: the OS's position, not an arrival")
    p.clock.advance(by: 900)
    let kept = p.phone.receive(report(north: 600, accuracy: 65, stationary: true, p))
    #expect(kept.events.contains { if case .planKept(let why) = $0 { why.contains("stillness") } else { false } }, "with a plan, stillness keeps it: \(kept.events)")
  }

  /// The same position fires when the phone says it moves, or stopped only just now.
  @Test func aCoarseReportFiresWhenThePhoneMovesOrHasJustStopped() throws {
    for (first, second) in [(false as Bool?, true as Bool?), (true, false), (nil, nil)] {
      let p = Phone()
      _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 150)), radius: 100)])
      _ = p.phone.receive(report(north: 0, accuracy: 65, stationary: first, p))
      p.clock.advance(by: SessionConfig().stillnessVeto + 60)
      let arrived = p.phone.receive(report(north: 140, accuracy: 65, stationary: second, p))
      #expect(arrived.reminders.map(\.title) == ["Buy milk"], "\(String(describing: first)) then \(String(describing: second))")
    }
  }

  func report(north meters: Double, accuracy: Double, network: PhoneNetwork?, _ p: Phone) -> PhoneReport {
    .location(PhoneFix(coordinate: ArrivalHarness.point(north: meters), accuracy: accuracy, at: p.clock.now(), network: network))
  }

  /// An Android phone says no motion, but names the Wi-Fi it is joined to:
  /// joined to one access point for ten minutes, the OS's position
  /// wandering into the shop 150 m away fires nothing; the same position
  /// reported from mobile data (the person left home) fires.
  @Test func aCoarseReportWhileJoinedToOneWiFiForLongFiresNothing() throws {
    let p = Phone()
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 150)), radius: 100)])
    _ = p.phone.receive(report(north: 0, accuracy: 65, network: .wifi("aa"), p))
    p.clock.advance(by: SessionConfig().stillnessVeto + 60)
    let wandered = p.phone.receive(report(north: 140, accuracy: 65, network: .wifi("aa"), p))
    #expect(wandered.reminders.isEmpty, "\(wandered.events)")
    #expect(wandered.events.contains { if case .planKept(let why) = $0 { why.contains("stillness") } else { false } }, "\(wandered.events)")
    p.clock.advance(by: 30)
    #expect(p.phone.receive(report(north: 140, accuracy: 65, network: .noWifi, p)).reminders.map(\.title) == ["Buy milk"])
  }

  /// Joining another access point, being on mobile data, or a phone that
  /// reports its motion (iOS, moving) is no stillness, whatever the Wi-Fi.
  @Test func anotherAccessPointOrAPhoneThatReportsMotionIsNotStill() throws {
    let moving = { (north: Double, p: Phone) -> PhoneReport in
      .location(PhoneFix(coordinate: ArrivalHarness.point(north: north), accuracy: 65, at: p.clock.now(), stationary: false, network: .wifi("aa")))
    }
    let cases: [(first: (Double, Phone) -> PhoneReport, second: (Double, Phone) -> PhoneReport)] = [
      ({ self.report(north: $0, accuracy: 65, network: .wifi("aa"), $1) }, { self.report(north: $0, accuracy: 65, network: .wifi("bb"), $1) }),
      ({ self.report(north: $0, accuracy: 65, network: .noWifi, $1) }, { self.report(north: $0, accuracy: 65, network: .noWifi, $1) }),
      (moving, moving),
    ]
    for (index, (first, second)) in cases.enumerated() {
      let p = Phone()
      _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 150)), radius: 100)])
      _ = p.phone.receive(first(0, p))
      p.clock.advance(by: SessionConfig().stillnessVeto + 60)
      #expect(p.phone.receive(second(140, p)).reminders.map(\.title) == ["Buy milk"], "case \(index)")
    }
  }

  /// A task 3 km north, a phone that said it sat still at the start 40
  /// minutes ago, then its entry of the task's arrival region: the reply.
  func enteredAfterLongStillness(_ p: Phone) throws -> PhoneService.Reply? {
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 3000)), radius: 100)])
    guard case .setRegions(let regions)? = p.phone.receive(report(north: 0, accuracy: 10, stationary: true, p)).commands.last,
      let arrival = regions.first(where: { $0.id.hasPrefix("wh:") })
    else {
      Issue.record("no arrival region was sent")
      return nil
    }
    p.clock.advance(by: 2400)
    return p.phone.receive(.transition(PhoneTransition(entered: true, regionID: arrival.id, stamp: nil, name: nil, fix: nil, at: p.clock.now())))
  }

  /// A transition comes before the location that says how the phone moves
  /// (both apps send a location right after it): an entry let be because
  /// the phone last said it sat still is taken when the next message, the
  /// same second, says it moves. Here that location is too coarse to fire
  /// by itself, so the entry asks a report to confirm; a GPS one fires.
  @Test func anEntryLetBeForStillnessIsTakenWhenTheNextMessageSaysThePhoneMoves() throws {
    let p = Phone()
    let entry = try #require(try enteredAfterLongStillness(p))
    #expect(!entry.commands.contains(.reportLocation), "the phone said it sat still: \(entry.events)")
    let moving = p.phone.receive(report(north: 2980, accuracy: 150, stationary: false, p))
    #expect(moving.reminders.isEmpty)
    #expect(moving.events.contains { if case .planKept(let why) = $0 { why.contains("the crossing is taken") } else { false } }, "\(moving.events)")
    #expect(moving.commands.contains(.reportLocation), "\(moving.commands)")
    p.clock.advance(by: 5)
    #expect(p.phone.receive(report(north: 3000, accuracy: 8, stationary: false, p)).reminders.map(\.title) == ["Buy milk"])
  }

  /// Still for long, then moving a minute later: the entry let be before
  /// is not taken (the person may have walked out since; only what the
  /// same wake says counts).
  @Test func anEntryLetBeIsNotTakenWhenMotionComesLater() throws {
    let p = Phone()
    _ = try #require(try enteredAfterLongStillness(p))
    p.clock.advance(by: 60)
    let moving = p.phone.receive(report(north: 0, accuracy: 150, stationary: false, p))
    #expect(!moving.events.contains { if case .planKept(let why) = $0 { why.contains("the crossing is taken") } else { false } }, "\(moving.events)")
  }


  /// the one before: a "move" report after the command that ends the
  /// session is not the person's own mode. Taking it as such kept the
  /// phone in move mode after the next session, for good.
  @Test func aMoveReportWrittenBeforeTheAppReadTheEndOfTheSessionIsNotItsOwnMode() throws {
    let p = Phone()
    _ = try enterZone(p, remoteConfiguration: true)
    p.clock.advance(by: SessionConfig().remoteNoFixTimeout + 5)
    _ = p.phone.tick()
    let ended = p.phone.receive(report(north: 200, accuracy: 10, stationary: nil, p, monitoring: PhoneMonitoring.move), remoteConfiguration: true)
    #expect(ended.commands.contains(.setMonitoring(PhoneMonitoring(mode: PhoneMonitoring.significant))), "\(ended.commands)")
    // Written before the app read that answer.
    _ = p.phone.receive(report(north: 205, accuracy: 10, stationary: nil, p, monitoring: PhoneMonitoring.move), remoteConfiguration: true)
    // The next session (started by a crossing: the app in significant mode sent nothing else meanwhile) ends with the phone back in significant mode, not move.
    p.clock.advance(by: 3600)
    guard let zone = p.phone.monitor.monitoredRegions().first(where: { $0.hasPrefix("wh-zone:") }) else {
      Issue.record("no approach zone is watched: \(p.phone.monitor.monitoredRegions())")
      return
    }
    p.clock.advance(by: 30)
    let again = p.phone.receive(
      .transition(PhoneTransition(entered: true, regionID: zone, stamp: nil, name: nil, fix: nil, at: p.clock.now())), remoteConfiguration: true)
    #expect(again.commands.contains { if case .setMonitoring(let m) = $0 { m.mode == PhoneMonitoring.move } else { false } }, "\(again.commands)")
    p.clock.advance(by: SessionConfig().remoteNoFixTimeout + 5)
    _ = p.phone.tick()
    let back = p.phone.receive(report(north: 300, accuracy: 10, stationary: nil, p, monitoring: PhoneMonitoring.move), remoteConfiguration: true)
    #expect(back.commands.contains(.setMonitoring(PhoneMonitoring(mode: PhoneMonitoring.significant))), "\(back.commands)")
  }
}
