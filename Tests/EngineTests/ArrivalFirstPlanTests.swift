import Domain
import Engine
import Foundation
import Geofencing
import Testing

/// A phone whose only positions are a cell tower's (no Wi-Fi
/// positioning): too vague to plan from, they used to leave the engine
/// with no plan, no regions and no reminder all day, and once planned,
/// with a plan that moved only on the OS's late edge exits. Driven by a
/// manual clock.
@Suite struct ArrivalFirstPlanTests {
  func singleFixes(_ h: ArrivalHarness) -> Int { h.precise.singleFixes.withLock { $0 } }

  func plannedReasons(_ events: [ArrivalEvent]) -> [String] {
    events.compactMap { if case .planned(_, _, _, let reason) = $0 { reason } else { nil } }
  }

  /// One fix is asked (once, while it is on its way) and the plan is made
  /// where it puts the person, so the nearby place is watched.
  @Test func aVagueFirstPositionAsksOneFixAndPlansWhereItIs() throws {
    let h = ArrivalHarness()
    let milk = try h.task("Buy milk", north: 300, radius: 60)
    _ = try h.task("Far away", north: 30_000, radius: 60)
    // The cell tower's position is 2 km off.
    let first = h.arrivals.significantChange(ArrivalHarness.point(north: 2300), accuracy: 1000)
    #expect(plannedReasons(first).isEmpty)
    #expect(first.contains(.confirmationRequested("wh-first")), "\(first)")
    #expect(singleFixes(h) == 1)
    h.clock.advance(by: 5)
    let again = h.arrivals.significantChange(ArrivalHarness.point(north: 2400), accuracy: 1000)
    #expect(singleFixes(h) == 1, "one fix is on its way: \(again)")
    let fixed = h.arrivals.preciseFix(ArrivalHarness.home, accuracy: 12)
    #expect(plannedReasons(fixed) == ["the first position, from a fix"], "\(fixed)")
    #expect(try #require(h.arrivals.currentPlan.origin).distance(to: ArrivalHarness.home) < 1)
    #expect(h.arrivals.currentPlan.destinations.contains { $0.task == milk.id })
  }

  /// With no allowance for a fix, the vague position is planned from: a
  /// plan in the wrong place has an edge whose exit corrects it.
  @Test func withoutAllowanceTheVaguePositionIsPlannedFrom() throws {
    var config = ArrivalConfig()
    config.session.allowance = 0
    let h = ArrivalHarness(config: config)
    _ = try h.task("Buy milk", north: 300, radius: 60)
    let events = h.arrivals.significantChange(ArrivalHarness.point(north: 2300), accuracy: 1000)
    #expect(plannedReasons(events) == ["a vague first position, no allowance for a fix"], "\(events)")
    #expect(singleFixes(h) == 0)
    #expect(try #require(h.arrivals.currentPlan.origin).distance(to: ArrivalHarness.point(north: 2300)) < 1)
  }

  /// Once a plan exists, a vague position that cannot show the person
  /// left it (this plan covers every place: it has no edge) keeps it, as
  /// before: the plan was made from a better one.
  @Test func aVaguePositionAfterAPlanKeepsIt() throws {
    let h = ArrivalHarness()
    _ = try h.task("Buy milk", north: 300, radius: 60)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    h.clock.advance(by: 900)
    let events = h.arrivals.significantChange(ArrivalHarness.point(north: 2300), accuracy: 1000)
    #expect(plannedReasons(events).isEmpty)
    #expect(singleFixes(h) == 0, "\(events)")
    #expect(try #require(h.arrivals.currentPlan.origin).distance(to: ArrivalHarness.home) < 1)
  }

  /// The same through the phone service an OwnTracks phone reaches: a
  /// first report placed by a cell tower is answered with reportLocation,
  /// not with regions, and the location it sends installs the plan.
  @Test func anOwnTracksPhoneWhoseFirstReportIsACellTowersIsAskedWhereItIs() throws {
    let p = PhoneServiceTests.Phone()
    _ = try p.engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 150)), radius: 100)])
    // 690 m off, within its claimed accuracy.
    let first = p.phone.receive(p.at(north: 700, accuracy: 1000))
    #expect(first.commands == [.reportLocation], "\(first.commands)")
    p.clock.advance(by: 5)
    let located = p.phone.receive(p.at(north: 10, accuracy: 10))
    guard located.commands.first == .clearRegions, case .setRegions(let regions)? = located.commands.dropFirst().first else {
      Issue.record("the located report must install the plan: \(located.commands)")
      return
    }
    #expect(!regions.isEmpty)
  }

  /// After the first plan, a vague position that is outside the plan's
  /// edge by more than its accuracy asks what the edge's exit asks (one
  /// wake-up fix), sooner than the OS, judging from the same towers,
  /// would deliver that exit; one that may still be inside asks nothing.
  @Test func aVaguePositionSurelyOutsideThePlannedAreaAsksAWakeUpFix() throws {
    let h = ArrivalHarness()
    // More places than regions, so the plan has an edge.
    for i in 0..<30 { _ = try h.task("Errand \(i)", north: 300 + Double(i) * 100, radius: 60) }
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let edge = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .edge })
    h.clock.advance(by: 900)
    let near = h.arrivals.significantChange(ArrivalHarness.point(north: edge.radius + 500), accuracy: 1000)
    #expect(singleFixes(h) == 0, "\(near)")
    h.clock.advance(by: 600)
    let far = h.arrivals.significantChange(ArrivalHarness.point(north: edge.radius + 1500), accuracy: 1000)
    #expect(far.contains(.wakeFixRequested), "\(far)")
    #expect(singleFixes(h) == 1)
    let fixed = h.arrivals.preciseFix(ArrivalHarness.point(north: edge.radius + 1400), accuracy: 10)
    #expect(plannedReasons(fixed) == ["left the coverage edge"], "\(fixed)")
  }

  /// The same for a cell-grade position while following (the native
  /// phone's reduced-accuracy updates, which only cell towers place):
  /// one surely outside the edge asks a wake-up fix, one that may be
  /// inside asks nothing.
  @Test func aFollowedCellPositionSurelyOutsideThePlannedAreaAsksAWakeUpFix() throws {
    let h = ArrivalHarness()
    // Places every 40 m: the plan's edge is small and the engine follows.
    for i in 0..<20 { _ = try h.task("Errand \(i)", north: 200 + Double(i) * 40, radius: 30) }
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let edge = try #require(h.arrivals.currentPlan.regions.first { $0.kind == .edge })
    #expect(h.precise.reducedFilter != nil, "following")
    h.clock.advance(by: 120)
    _ = h.arrivals.reducedFix(ArrivalHarness.point(north: edge.radius + 600), accuracy: 1000)
    #expect(singleFixes(h) == 0)
    h.clock.advance(by: 120)
    let far = h.arrivals.reducedFix(ArrivalHarness.point(north: edge.radius + 1600), accuracy: 1000)
    #expect(far.contains(.wakeFixRequested), "\(far)")
    #expect(singleFixes(h) == 1)
  }
}
