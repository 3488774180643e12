import Domain
import Foundation
import Geofencing
import Testing

@Suite struct PreciseSessionTests {
  static let center = try! Coordinate(latitude: 60.17, longitude: 24.94)
  let start = Date(timeIntervalSince1970: 1_000_000)
  let config = SessionConfig()

  static func point(north meters: Double) -> Coordinate {
    try! Coordinate(latitude: center.latitude + meters / 111_195, longitude: center.longitude)
  }

  static let shop = Destination(task: TaskID("milk"), location: LocationID("l1"), center: center, radius: 50, priority: 1)
  static let other = Destination(task: TaskID("post"), location: LocationID("l1"), center: point(north: 300), radius: 40, priority: 1)
  static let zone = PlannedRegion(id: "wh-zone:x", kind: .approach, center: point(north: 150), radius: 600, destinations: [shop, other])

  func session(limits: PowerPolicy.Limits? = nil, granted: TimeInterval = 600) -> PreciseSession {
    PreciseSession(
      zone: Self.zone, startedAt: start, limits: limits ?? PowerPolicy(config: config).limits(for: PowerState()), granted: granted,
      config: config)
  }

  @Test(arguments: [(40.0, true), (49.9, true), (50.1, false), (70.0, false)])
  func firesOnlyInsideTheRadius(metersAway: Double, fires: Bool) {
    var s = session()
    let first = s.fix(Self.point(north: -metersAway), accuracy: 10, at: start.addingTimeInterval(5))
    #expect(first.isEmpty, "one fix is not enough: it takes two in a row")
    let events = s.fix(Self.point(north: -metersAway), accuracy: 10, at: start.addingTimeInterval(6))
    #expect(events.contains { if case .fire(let d, _, _) = $0 { return d == Self.shop } else { return false } } == fires)
  }

  @Test func aFixLessAccurateThanTheRadiusDoesNotFire() {
    var s = session()
    let vague = s.fix(Self.center, accuracy: 60, at: start.addingTimeInterval(5))
    #expect(vague.isEmpty)
    let worseThanRadius = s.fix(Self.point(north: 300), accuracy: 45, at: start.addingTimeInterval(6))
    #expect(worseThanRadius.isEmpty, "45 m accuracy > 40 m radius")
  }

  @Test func stopsWhenEveryDestinationIsSettled() {
    var s = session()
    _ = s.fix(Self.center, accuracy: 8, at: start.addingTimeInterval(5))
    _ = s.fix(Self.center, accuracy: 8, at: start.addingTimeInterval(6))
    _ = s.fix(Self.point(north: 300), accuracy: 8, at: start.addingTimeInterval(20))
    let events = s.fix(Self.point(north: 300), accuracy: 8, at: start.addingTimeInterval(21))
    #expect(events.last == .stop(.settled))
    #expect(!s.isRunning)
  }

  @Test func anOutlierJumpIsIgnored() {
    var s = session()
    _ = s.fix(Self.point(north: 600), accuracy: 8, at: start.addingTimeInterval(5))
    // 600 m in one second, claiming 8 m accuracy: a jump, not a move.
    let jump = s.fix(Self.center, accuracy: 8, at: start.addingTimeInterval(6))
    let again = s.fix(Self.point(north: 600), accuracy: 8, at: start.addingTimeInterval(7))
    #expect(jump.isEmpty && again.isEmpty && s.isRunning)
  }

  @Test func anOutlierThatCameFirstDoesNotBlockTheTruth() {
    var s = session()
    _ = s.fix(Self.point(north: 600), accuracy: 8, at: start.addingTimeInterval(5))
    var fired = false
    for t in 6...10 {
      let events = s.fix(Self.center, accuracy: 8, at: start.addingTimeInterval(Double(t)))
      fired = fired || events.contains { if case .fire = $0 { return true } else { return false } }
    }
    #expect(fired, "after three fixes that agree with each other the session trusts them")
  }

  @Test func stopsWithoutAFixForTheNoFixTimeout() {
    var s = session()
    let timeout = config.noFixTimeout
    let early = s.tick(at: start.addingTimeInterval(timeout - 1))
    #expect(early.isEmpty)
    let late = s.tick(at: start.addingTimeInterval(timeout))
    #expect(late == [.stop(.noFix)])
  }

  @Test func positionsTooCoarseToPlaceAnyoneDoNotKeepASessionAlive() {
    // A phone whose GPS never started reports its Wi-Fi guess every 5 s:
    // those are no fix, so the session stops at the fix timeout instead of
    // running (and being charged) to its time limit.
    var s = session()
    var events: [PreciseSession.Event] = []
    for second in stride(from: 5, through: 60, by: 5) {
      events += s.fix(Self.point(north: -200), accuracy: 65, at: start.addingTimeInterval(Double(second)))
      events += s.tick(at: start.addingTimeInterval(Double(second)))
      if !s.isRunning { break }
    }
    #expect(events == [.stop(.noFix)])
    #expect(s.stoppedAt == start.addingTimeInterval(config.noFixTimeout))
  }

  @Test func theSameFixHandedOverTwiceCountsOnce() {
    var s = session()
    let at = start.addingTimeInterval(5)
    #expect(s.fix(Self.center, accuracy: 10, at: at).isEmpty)
    #expect(s.fix(Self.center, accuracy: 10, at: at).isEmpty, "one report, not two fixes in a row")
    #expect(s.fix(Self.center, accuracy: 10, at: at.addingTimeInterval(1)).contains { if case .fire = $0 { true } else { false } })
  }

  @Test func stopsWhenStationaryFor90Seconds() {
    var s = session()
    let spot = Self.point(north: 150)
    var last: [PreciseSession.Event] = []
    for t in stride(from: 1.0, through: 91, by: 1) { last = s.fix(spot, accuracy: 8, at: start.addingTimeInterval(t)) }
    #expect(last == [.stop(.stationary)])
  }

  @Test func stopsOnLeavingTheZone() {
    var s = session()
    let events = s.fix(Self.point(north: 150 + 700), accuracy: 8, at: start.addingTimeInterval(5))
    #expect(events == [.stop(.leftZone)])
  }

  @Test func theBudgetCapsTheDeadline() {
    var s = session(granted: 100)
    for t in stride(from: 1.0, to: 100, by: 10) { _ = s.fix(Self.point(north: 150 + t), accuracy: 8, at: start.addingTimeInterval(t)) }
    let events = s.tick(at: start.addingTimeInterval(100))
    #expect(events == [.stop(.budget)])
    #expect(s.used(at: start.addingTimeInterval(500)) == 100)
  }

  @Test func seriousHeatShrinksButNeverExtendsTheDeadline() {
    let policy = PowerPolicy(config: config)
    var s = session()
    _ = s.fix(Self.point(north: 150), accuracy: 8, at: start.addingTimeInterval(5))
    _ = s.powerChanged(policy.limits(for: PowerState(thermal: .serious)), at: start.addingTimeInterval(10))
    #expect(s.deadline == start.addingTimeInterval(180))
    _ = s.powerChanged(policy.limits(for: PowerState(thermal: .nominal)), at: start.addingTimeInterval(20))
    #expect(s.deadline == start.addingTimeInterval(180), "recovery never extends a running session")
  }

  @Test func criticalHeatStopsNow() {
    var s = session()
    let events = s.powerChanged(PowerPolicy(config: config).limits(for: PowerState(thermal: .critical)), at: start.addingTimeInterval(3))
    #expect(events == [.stop(.criticalHeat)])
  }

  @Test(arguments: [(0.19, false, PowerState.Thermal.nominal, 180.0), (0.5, true, .nominal, 180), (0.5, false, .serious, 180), (0.5, false, .fair, 600)])
  func powerLimits(battery: Double, lowPower: Bool, thermal: PowerState.Thermal, maxDuration: Double) {
    let limits = PowerPolicy(config: config).limits(for: PowerState(battery: battery, lowPowerMode: lowPower, thermal: thermal))
    #expect(limits.allowed && limits.maxDuration == maxDuration)
    #expect(limits.stationaryStop == (maxDuration == 180 ? 45 : 90))
  }

  @Test func aTaskSettledElsewhereLeavesTheSession() {
    var s = session()
    let first = s.settle(task: TaskID("milk"))
    #expect(first.isEmpty)
    let second = s.settle(task: TaskID("post"))
    #expect(second == [.stop(.settled)])
  }
}

@Suite struct PreciseSessionJoinTests {
  @Test func aZoneEnteredDuringASessionJoinsIt() {
    let config = SessionConfig()
    let start = Date(timeIntervalSince1970: 1_000_000)
    let far = Destination(task: TaskID("far"), location: LocationID("l1"), center: PreciseSessionTests.point(north: 2000), radius: 50, priority: 1)
    let second = PlannedRegion(id: "wh-zone:y", kind: .approach, center: far.center, radius: 400, destinations: [far])
    var s = PreciseSession(
      zone: PreciseSessionTests.zone, startedAt: start, limits: PowerPolicy(config: config).limits(for: PowerState()), granted: 600,
      config: config)
    s.join(second)
    #expect(s.pending.contains(far) && s.zones.count == 2)
    // Being in the second zone (far from the first) is not leaving.
    let fixes = (1...3).flatMap { s.fix(far.center, accuracy: 8, at: start.addingTimeInterval(Double($0))) }
    #expect(fixes.contains { if case .fire(let d, _, _) = $0 { return d == far } else { return false } })
    #expect(s.isRunning, "the first zone's destinations are still pending")
  }
}

@Suite struct PreciseSessionProgressTests {
  @Test func walkingAroundWithoutNearingAnyDestinationStopsTheSession() {
    let config = SessionConfig()
    let start = Date(timeIntervalSince1970: 1_000_000)
    var s = PreciseSession(
      zone: PreciseSessionTests.zone, startedAt: start, limits: PowerPolicy(config: config).limits(for: PowerState()), granted: 600,
      config: config)
    // Pacing east and west 200 m south of the shop, never getting closer.
    var stop: [PreciseSession.Event] = []
    for t in 1...200 where stop.isEmpty {
      let east = Double(t % 40) * 1.5
      let point = try! Coordinate(latitude: PreciseSessionTests.center.latitude - 200 / 111_195, longitude: PreciseSessionTests.center.longitude + east / 55_600)
      stop = s.fix(point, accuracy: 8, at: start.addingTimeInterval(Double(t))).filter { if case .stop = $0 { return true } else { return false } }
    }
    #expect(stop == [.stop(.noProgress)])
    #expect(s.used(at: start.addingTimeInterval(200)) <= 125)
  }

}

/// Rests: the GPS off while every pending destination is too far to reach sooner.
extension PreciseSessionTests {
  /// Six fixes a second apart walking north from `from` metres.
  func walk(_ s: inout PreciseSession, from: Double) -> [PreciseSession.Event] {
    (1...6).flatMap { t in s.fix(Self.point(north: from + 1.4 * Double(t)), accuracy: 8, at: start.addingTimeInterval(Double(t))) }
  }

  @Test func restsTheGPSWhileEveryDestinationIsFarAndResumesBeforeThePersonCanArrive() throws {
    var s = session()
    let events = walk(&s, from: -400)
    let rest = try #require(events.compactMap { if case .rest(let until) = $0 { return until } else { return nil } }.first, "\(events)")
    // 650 m to the shop's edge, less the margin, at the 2 m/s floor, less the GPS's lead.
    let expected = (350 - 1.4 * 6 - config.pauseMargin) / config.pauseSpeedFloor - config.pauseLead
    #expect(abs(rest.timeIntervalSince(start.addingTimeInterval(6)) - expected) < 2, "rest until \(rest)")
    #expect(s.tick(at: rest.addingTimeInterval(-1)).isEmpty, "no fix timeout while resting")
    #expect(s.tick(at: rest) == [.resume])
    #expect(abs(s.used(at: rest) - 6) < 0.001, "rests are not charged")
    #expect(s.tick(at: rest.addingTimeInterval(config.noFixTimeout - 1)).isEmpty, "the fix timeout counts from the resume")
    #expect(s.tick(at: rest.addingTimeInterval(config.noFixTimeout)) == [.stop(.noFix)])
  }

  @Test func neverRestsCloseToADestination() {
    var s = session()
    let events = walk(&s, from: -120)
    #expect(!events.contains { if case .rest = $0 { return true } else { return false } }, "\(events)")
  }

  @Test func restsAreOffWithAZeroMinimum() {
    var off = config
    off.pauseMinimum = 0
    var s = PreciseSession(zone: Self.zone, startedAt: start, limits: PowerPolicy(config: off).limits(for: PowerState()), granted: 600, config: off)
    let events = walk(&s, from: -400)
    #expect(!events.contains { if case .rest = $0 { return true } else { return false } })
  }
}

/// Passing by: a destination the person nears and then walks away from needs no confirming.
extension PreciseSessionTests {
  /// Fixes a second apart walking north at 1.4 m/s from `from` to `to` metres (south is negative).
  func walk(_ s: inout PreciseSession, from: Double, to: Double, startingAt t0: Double = 1) -> (events: [PreciseSession.Event], end: Double) {
    let steps = Int(abs(to - from) / 1.4)
    let step = to >= from ? 1.4 : -1.4
    let events = (0...steps).flatMap { i in
      s.fix(Self.point(north: from + step * Double(i)), accuracy: 8, at: start.addingTimeInterval(t0 + Double(i)))
    }
    return (events, t0 + Double(steps))
  }

  @Test func walkingPastADestinationSettlesItWithoutFiring() {
    var s = session()
    let near = walk(&s, from: -200, to: -60)
    let away = walk(&s, from: -60, to: -250, startingAt: near.end + 1)
    #expect(!(near.events + away.events).contains { if case .fire = $0 { return true } else { return false } })
    #expect(!s.pending.contains(Self.shop), "came within 10 m of its edge, then walked 190 m away")
    #expect(s.pending.contains(Self.other))
  }

  @Test func aPlacePassedOnAStrayFixFiresWhenThePersonIsFoundInside() {
    var s = session()
    let near = walk(&s, from: -200, to: -60)
    // 80 m south in two seconds with 45 m accuracy: what GPS does near buildings.
    _ = s.fix(Self.point(north: -140), accuracy: 45, at: start.addingTimeInterval(near.end + 2))
    #expect(!s.pending.contains(Self.shop), "one fix farther away is taken for walking past")
    let arrive = walk(&s, from: -58, to: -40, startingAt: near.end + 3)
    #expect(arrive.events.contains { if case .fire(let d, _, _) = $0 { return d == Self.shop } else { return false } })
  }

  @Test func aPlacePassedIsNotConfirmedOnceItsTaskIsSettledElsewhere() {
    var s = session()
    let near = walk(&s, from: -200, to: -60)
    _ = s.fix(Self.point(north: -140), accuracy: 45, at: start.addingTimeInterval(near.end + 2))
    _ = s.settle(task: Self.shop.task)
    let arrive = walk(&s, from: -58, to: -40, startingAt: near.end + 3)
    #expect(!arrive.events.contains { if case .fire = $0 { return true } else { return false } }, "\(arrive.events)")
  }
}
