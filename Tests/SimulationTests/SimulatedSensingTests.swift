import Domain
import Foundation
import Simulation
import Testing

/// The phone's cheaper sensing: reduced-accuracy updates, visit monitoring,
/// and what an app that runs (rather than sleeps) pays for events.
@Suite struct SimulatedSensingTests {
  let start = Date(timeIntervalSince1970: 1_000_000)
  let here = try! Coordinate(latitude: 60.17, longitude: 24.94)

  /// No error in the OS's position, and a fixed visit latency, so the delivery rules show on their own.
  var exactOS: WorldConfig {
    var world = WorldConfig.exactOS
    world.visits.latencyMedian = 60
    world.visits.latencyP95 = 60.0001
    return world
  }

  func at(_ second: Int) -> Date { start.addingTimeInterval(Double(second)) }

  @Test func reducedUpdatesComeEveryRefreshOnceMovedTheFilterAndCostTheirTime() {
    let location = SimulatedLocation(world: exactOS, random: SimRandom(seed: 1))
    #expect(location.reducedFix(position: here, at: at(0)) == nil, "off until asked")
    location.startReducedUpdates(distanceFilter: 50)
    #expect(location.reducedFix(position: here, at: at(1)) != nil, "the first comes at once")
    #expect(location.reducedFix(position: here.offsetNorth(80), at: at(5)) == nil, "before the next refresh")
    #expect(location.reducedFix(position: here.offsetNorth(30), at: at(11)) == nil, "moved less than the filter")
    let fix = location.reducedFix(position: here.offsetNorth(60), at: at(21))
    #expect(fix.map { abs($0.point.distance(to: here) - 60) < 1 } == true)
    #expect(fix?.accuracy == 65 || fix?.accuracy == 1000, "Wi-Fi or cell grade, never GPS")
    #expect(location.reducedSeconds == 4, "one second counted per second it was on and asked")
    #expect(location.preciseSeconds == 0)
    location.stopReducedUpdates()
    #expect(location.reducedFix(position: here.offsetNorth(500), at: at(40)) == nil)
  }

  /// Live updates' stationary pause: one GPS update to start, nothing
  /// while the motion history says still, then one fix that wakes the app
  /// when it says the device moves, and the watch is over.
  @Test func aMovementWatchWakesTheAppOnceWhenTheDeviceMoves() {
    var world = exactOS
    world.gps.backgroundStartFailure = 0
    let location = SimulatedLocation(world: world, random: SimRandom(seed: 1))
    #expect(location.offersMovementWatch)
    location.motionChanged(still: true)
    location.watchForMovement()
    #expect(location.isWatchingForMovement)
    #expect(location.preciseSeconds == world.gps.singleFixSeconds, "one update before the OS pauses them")
    for second in 1...600 { #expect(!location.movementWake(position: here, at: at(second)).woke, "paused while still") }
    #expect(location.wakes == 0)
    location.motionChanged(still: false)
    let moved = location.movementWake(position: here.offsetNorth(40), at: at(601))
    #expect(moved.woke && moved.fix != nil)
    #expect(location.wakesByCause == ["live update": 1])
    #expect(location.preciseSeconds == 2 * world.gps.singleFixSeconds)
    #expect(!location.isWatchingForMovement, "over after the first update")
    #expect(!location.movementWake(position: here.offsetNorth(80), at: at(602)).woke)
  }

  /// Android's activity transitions: no GPS at all, a wake and no position
  /// when the device leaves STILL.
  @Test func anActivityTransitionWatchWakesWithoutGPS() {
    let location = SimulatedLocation(world: exactOS, coarse: CoarsePositionProcess(config: exactOS.coarsePosition, random: SimRandom(seed: 2)), random: SimRandom(seed: 1), movementByGPS: false)
    location.motionChanged(still: true)
    location.watchForMovement()
    #expect(location.isWatchingForMovement && location.preciseSeconds == 0)
    #expect(!location.movementWake(position: here, at: at(1)).woke)
    location.motionChanged(still: false)
    let moved = location.movementWake(position: here.offsetNorth(40), at: at(2))
    #expect(moved.woke && moved.fix == nil)
    #expect(location.wakesByCause == ["activity transition": 1] && location.preciseSeconds == 0)
  }

  @Test func significantChangesComeOnlyWhileStarted() {
    let location = SimulatedLocation(world: exactOS, random: SimRandom(seed: 1))
    #expect(location.significantChange(position: here, at: at(0)) == nil, "off until asked")
    location.startSignificantChanges()
    #expect(location.significantChange(position: here, at: at(1)) != nil)
    location.stopSignificantChanges()
    #expect(location.significantChange(position: here.offsetNorth(5000), at: at(10_000)) == nil, "off once stopped, however far and long")
    #expect(location.wakesByCause == ["significant change": 1])
  }

  /// A wake keeps the app up for `power.wakeSeconds` (10 s): what the OS
  /// delivers meanwhile reaches the running app and only keeps it up longer.
  @Test func eventsWithinAWakeReachTheRunningAppAndOnlyExtendIt() {
    let location = SimulatedLocation(world: exactOS, random: SimRandom(seed: 1))
    location.deliver("region events", at: at(0))
    location.deliver("region events", at: at(0))
    location.deliver("single fix", at: at(4))
    #expect(location.wakes == 1, "three deliveries within one wake")
    #expect(location.wakeSeconds == 14, "awake from 0 s to 4 + 10 s")
    location.deliver("region events", at: at(30))
    #expect(location.wakesByCause == ["region events": 2])
    #expect(location.wakeSeconds == 24)
    var apart = exactOS
    apart.power.wakesOverlap = false
    let harsh = SimulatedLocation(world: apart, random: SimRandom(seed: 1))
    harsh.deliver("region events", at: at(0), count: 2)
    harsh.deliver("single fix", at: at(4))
    #expect(harsh.wakes == 3 && harsh.wakeSeconds == 30, "the harsher world charges every delivery a whole wake")
  }

  @Test func anAppReceivingLocationUpdatesIsAwakeSoEventsWakeNothing() {
    let location = SimulatedLocation(world: exactOS, random: SimRandom(seed: 2))
    location.startSignificantChanges()
    _ = location.significantChange(position: here, at: at(0))
    #expect(location.wakes == 1, "a suspended app is woken")
    location.startReducedUpdates(distanceFilter: 50)
    #expect(location.isAppAwake)
    _ = location.significantChange(position: here.offsetNorth(900), at: at(1000))
    location.requestSingleFix()
    _ = location.preciseFix(position: here, at: at(1001))
    #expect(location.wakes == 1, "running already: no wake to pay")
    location.stopReducedUpdates()
    location.requestSingleFix()
    _ = location.preciseFix(position: here, at: at(1002))
    #expect(location.wakes == 2)
  }

  @Test func aStayIsReportedAfterItsMinimumAndTheLatencyAndItsEndToo() {
    let location = SimulatedLocation(world: exactOS, random: SimRandom(seed: 3))
    let stay = exactOS.visits
    for second in 0..<30 { #expect(location.visit(position: here.offsetNorth(Double(second) * 1.4), at: at(second)) == nil, "off until asked") }
    location.startVisitMonitoring()
    var reports: [(Int, SimulatedLocation.Visit)] = []
    // Walking, then 20 minutes in a shop, then walking on.
    var position = here
    for second in 0..<2400 {
      if second < 300 || second >= 1500 { position = position.offsetNorth(1.4) }
      if let visit = location.visit(position: position, at: at(second)) { reports.append((second, visit)) }
    }
    #expect(reports.count == 2, "\(reports.map(\.0))")
    let arrival = reports[0]
    #expect(arrival.1.departed == nil)
    // Where a stay begins is known only to within its radius: here, the last 100 m of walking.
    #expect(arrival.1.arrived <= at(300) && arrival.1.arrived >= at(300 - 72), "\(arrival.1.arrived.timeIntervalSince(start))")
    #expect(Double(arrival.0) >= arrival.1.arrived.timeIntervalSince(start) + stay.minimumStay + 59, "after the minimum stay and the latency")
    #expect(arrival.1.point.distance(to: here.offsetNorth(420)) < 1, "where the shop is, as the OS's position has it")
    #expect(reports[1].1.departed != nil, "leaving is reported too")
    #expect(location.wakes == 2)
  }

  @Test func aStayReportedAfterItEndedSaysSo() {
    var world = exactOS
    world.visits.latencyMedian = 600
    world.visits.latencyP95 = 600.0001
    let location = SimulatedLocation(world: world, random: SimRandom(seed: 4))
    location.startVisitMonitoring()
    var position = here
    var reports: [SimulatedLocation.Visit] = []
    // A 6-minute stop, then on: the arrival's delivery comes after leaving.
    for second in 0..<2400 {
      if second >= 360 { position = position.offsetNorth(1.4) }
      if let visit = location.visit(position: position, at: at(second)) { reports.append(visit) }
    }
    #expect(!reports.isEmpty && reports.allSatisfy { $0.departed != nil })
  }
}
