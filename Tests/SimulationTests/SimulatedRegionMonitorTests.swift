import Domain
import Foundation
import Geofencing
import Simulation
import Testing

@Suite struct SimulatedRegionMonitorTests {
  static let center = try! Coordinate(latitude: 60.17, longitude: 24.94)
  let start = Date(timeIntervalSince1970: 1_000_000)

  static func point(north meters: Double) -> Coordinate {
    try! Coordinate(latitude: center.latitude + meters / 111_195, longitude: center.longitude)
  }

  /// An OS with no noise and no latency, so each rule shows on its own.
  static var exact: WorldConfig.RegionMonitoring {
    var config = WorldConfig.RegionMonitoring()
    config.positionError = 0
    config.latencyMedian = 0.001
    config.latencyP95 = 0.002
    config.evaluationInterval = 1
    return config
  }

  func region(_ id: String, radius: Double = 300) -> PlannedRegion {
    PlannedRegion(id: id, kind: .arrival, center: Self.center, radius: radius, destinations: [])
  }

  @Test func refusesTheTwentyFirstRegion() throws {
    let monitor = SimulatedRegionMonitor(config: Self.exact, random: SimRandom(seed: 1))
    for i in 0..<20 { try monitor.startMonitoring(region("r\(i)")) }
    #expect(throws: RegionMonitorError.overCapacity(capacity: 20)) { try monitor.startMonitoring(region("r20")) }
    #expect(monitor.monitoredRegions().count == 20 && monitor.peak == 20 && monitor.failures == 1)
  }

  @Test func entryNeedsTheMarginAndTheDwell() throws {
    let monitor = SimulatedRegionMonitor(config: Self.exact, random: SimRandom(seed: 1))
    _ = monitor.step(position: Self.point(north: 2000), at: start)
    try monitor.startMonitoring(region("r"))
    var events: [RegionEvent] = []
    // Inside the radius but not yet 150 m (half the radius) past the boundary: nothing.
    for t in 1...60 { events += monitor.step(position: Self.point(north: 250), at: start.addingTimeInterval(Double(t))) }
    #expect(events.isEmpty)
    // Past the margin: an entry once the 20 s dwell has passed, not before.
    for t in 61...79 { events += monitor.step(position: Self.point(north: 100), at: start.addingTimeInterval(Double(t))) }
    #expect(events.isEmpty)
    for t in 80...85 { events += monitor.step(position: Self.point(north: 100), at: start.addingTimeInterval(Double(t))) }
    #expect(events.map(\.kind) == [.entered])
    // Leaving: an exit after the margin and dwell outside.
    for t in 86...140 { events += monitor.step(position: Self.point(north: 800), at: start.addingTimeInterval(Double(t))) }
    #expect(events.map(\.kind) == [.entered, .exited])
  }

  @Test func registeringWhileInsideGivesNoEntryButStateCanBeAsked() throws {
    let monitor = SimulatedRegionMonitor(config: Self.exact, random: SimRandom(seed: 1))
    _ = monitor.step(position: Self.center, at: start)
    try monitor.startMonitoring(region("r"))
    var events: [RegionEvent] = []
    for t in 1...120 { events += monitor.step(position: Self.center, at: start.addingTimeInterval(Double(t))) }
    #expect(events.isEmpty)
    monitor.requestState("r")
    for t in 121...125 { events += monitor.step(position: Self.center, at: start.addingTimeInterval(Double(t))) }
    #expect(events.map(\.kind) == [.inside])
  }

  @Test func approximateLocationDisablesMonitoring() {
    let monitor = SimulatedRegionMonitor(config: Self.exact, random: SimRandom(seed: 1))
    monitor.setAvailable(false)
    #expect(throws: RegionMonitorError.self) { try monitor.startMonitoring(region("r")) }
  }

  @Test func latencyFollowsTheWorldsDistribution() throws {
    var config = Self.exact
    config.latencyMedian = 30
    config.latencyP95 = 180
    var delays: [Double] = []
    for seed in 1...200 {
      let monitor = SimulatedRegionMonitor(config: config, random: SimRandom(seed: UInt64(seed)))
      _ = monitor.step(position: Self.point(north: 2000), at: start)
      try monitor.startMonitoring(region("r"))
      for t in 1...1000 {
        if let event = monitor.step(position: Self.center, at: start.addingTimeInterval(Double(t))).first {
          delays.append(event.at.timeIntervalSince(start) - 21)
          break
        }
      }
    }
    delays.sort()
    #expect(delays.count == 200)
    #expect(abs(delays[100] - 30) < 10, "median \(delays[100])")
    #expect(delays[190] > 90 && delays[190] < 400, "p95 \(delays[190])")
  }
}
