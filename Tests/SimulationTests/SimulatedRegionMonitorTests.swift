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

  /// An OS with no latency, so each rule shows on its own.
  static var exact: WorldConfig.RegionMonitoring {
    var config = WorldConfig.RegionMonitoring()
    config.latencyWiFiMedian = 0.001
    config.latencyWiFiP95 = 0.002
    config.latencyCellMedian = 0.001
    config.latencyCellP95 = 0.002
    config.evaluationInterval = 1
    return config
  }

  /// A coarse position with no error and no jumps.
  static var still: WorldConfig.CoarsePosition {
    var coarse = WorldConfig.CoarsePosition()
    coarse.wifiSigma = 0
    coarse.cellSigma = 0
    coarse.jumpsPerHour = 0
    return coarse
  }

  func monitor(_ config: WorldConfig.RegionMonitoring = Self.exact, coarse: WorldConfig.CoarsePosition = Self.still, seed: UInt64 = 1) -> SimulatedRegionMonitor {
    SimulatedRegionMonitor(config: config, coarse: coarse, random: SimRandom(seed: seed))
  }

  func walk(_ monitor: SimulatedRegionMonitor, north meters: Double, from: Int, to: Int) -> [RegionEvent] {
    (from...to).flatMap { monitor.step(position: Self.point(north: meters), at: start.addingTimeInterval(Double($0))) }
  }

  func region(_ id: String, radius: Double = 300) -> PlannedRegion {
    PlannedRegion(id: id, kind: .arrival, center: Self.center, radius: radius, destinations: [])
  }

  @Test func refusesTheTwentyFirstRegion() throws {
    let monitor = monitor()
    for i in 0..<20 { try monitor.startMonitoring(region("r\(i)")) }
    #expect(throws: RegionMonitorError.overCapacity(capacity: 20)) { try monitor.startMonitoring(region("r20")) }
    #expect(monitor.monitoredRegions().count == 20 && monitor.peak == 20 && monitor.failures == 1)
  }

  /// iOS `notifyOnExit` false: the OS tracks the exit but delivers nothing
  /// (no wake), so the next entry is delivered as an entry.
  @Test func aCrossingTheAppDidNotAskForIsTrackedButNotDelivered() throws {
    let monitor = monitor()
    _ = monitor.step(position: Self.point(north: 2000), at: start)
    try monitor.startMonitoring(region("r").notifying(entry: true, exit: false))
    #expect(walk(monitor, north: 0, from: 1, to: 60).map(\.kind) == [.entered])
    #expect(walk(monitor, north: 2000, from: 61, to: 120).isEmpty, "the exit is not delivered")
    #expect(walk(monitor, north: 0, from: 121, to: 180).map(\.kind) == [.entered], "the OS knew the person had left")
    #expect(monitor.delivered == 2)
    // Entries held back, exits delivered.
    let exits = self.monitor()
    _ = exits.step(position: Self.point(north: 2000), at: start)
    try exits.startMonitoring(region("e").notifying(entry: false, exit: true))
    #expect(walk(exits, north: 0, from: 1, to: 60).isEmpty)
    #expect(walk(exits, north: 2000, from: 61, to: 120).map(\.kind) == [.exited])
  }

  @Test func entryNeedsTheMarginAndTheDwell() throws {
    let monitor = monitor()
    _ = monitor.step(position: Self.point(north: 2000), at: start)
    try monitor.startMonitoring(region("r"))
    // Inside the 300 m radius but not yet 200 m past the boundary: nothing.
    var events = walk(monitor, north: 150, from: 1, to: 60)
    #expect(events.isEmpty)
    // Past the margin: an entry once the 20 s dwell has passed, not before.
    events += walk(monitor, north: 90, from: 61, to: 79)
    #expect(events.isEmpty)
    events += walk(monitor, north: 90, from: 80, to: 85)
    #expect(events.map(\.kind) == [.entered])
    // Leaving: 450 m out is not yet the full margin past 300 m; 520 m is.
    events += walk(monitor, north: 450, from: 86, to: 140)
    #expect(events.map(\.kind) == [.entered])
    events += walk(monitor, north: 520, from: 141, to: 170)
    #expect(events.map(\.kind) == [.entered, .exited])
  }

  @Test func aRegionUnderTheMinimumEntersAtTheMinimumAndExitsOnlyPastTheFullMargin() throws {
    let monitor = monitor()
    _ = monitor.step(position: Self.point(north: 2000), at: start)
    try monitor.startMonitoring(region("small", radius: 40))
    // 80 m from a 40 m region: inside the OS's 100 m minimum, so it enters (early).
    var events = walk(monitor, north: 80, from: 1, to: 30)
    #expect(events.map(\.kind) == [.entered])
    // The 200 m margin is not capped at half the radius: 250 m out is still inside.
    events += walk(monitor, north: 250, from: 31, to: 90)
    #expect(events.map(\.kind) == [.entered])
    events += walk(monitor, north: 310, from: 91, to: 130)
    #expect(events.map(\.kind) == [.entered, .exited])
  }

  @Test func theCrossingMarginIsApplied() throws {
    // The same walk under a 200 m and a 250 m margin: only the first sees the exit.
    var wide = Self.exact
    wide.crossingMargin = 250
    var exits: [Int] = []
    for config in [Self.exact, wide] {
      let monitor = monitor(config)
      _ = monitor.step(position: Self.center, at: start)
      try monitor.startMonitoring(region("r", radius: 100))
      let events = walk(monitor, north: 320, from: 1, to: 60)
      exits.append(events.filter { $0.kind == .exited }.count)
    }
    #expect(exits == [1, 0])
  }

  @Test func registeringWhileInsideGivesNoEntryButStateCanBeAsked() throws {
    let monitor = monitor()
    _ = monitor.step(position: Self.center, at: start)
    try monitor.startMonitoring(region("r"))
    var events = walk(monitor, north: 0, from: 1, to: 120)
    #expect(events.isEmpty)
    monitor.requestState("r")
    events += walk(monitor, north: 0, from: 121, to: 125)
    #expect(events.map(\.kind) == [.inside])
  }

  /// CLMonitor: a region added with a declared state is reported only
  /// where the OS finds otherwise, once, and crosses as any other after.
  @Test func aDeclaredStateIsReportedOnlyWhereTheOSFindsOtherwise() throws {
    let monitor = SimulatedRegionMonitor(config: Self.exact, coarse: Self.still, random: SimRandom(seed: 1), declaresInitialState: true)
    #expect(monitor.declaresInitialState)
    _ = monitor.step(position: Self.center, at: start)
    try monitor.startMonitoring(region("declared-out"), assumingInside: false)
    try monitor.startMonitoring(region("declared-in"), assumingInside: true)
    let far = PlannedRegion(id: "far-declared-in", kind: .edge, center: Self.point(north: 3000), radius: 300, destinations: [])
    try monitor.startMonitoring(far, assumingInside: true)
    let found = walk(monitor, north: 0, from: 1, to: 60)
    #expect(found.map { "\($0.id) \($0.kind)" }.sorted() == ["declared-out inside", "far-declared-in outside"])
    // After its finding the region crosses as any other: leaving gives one exit.
    let left = walk(monitor, north: 2000, from: 61, to: 120).filter { $0.id == "declared-out" }
    #expect(left.map { $0.kind } == [RegionEvent.Kind.exited])
  }

  /// Without declaring (CLLocationManager) the same start is silent.
  @Test func aMonitorThatCannotDeclareStartsAsBefore() throws {
    let monitor = monitor()
    #expect(!monitor.declaresInitialState)
    _ = monitor.step(position: Self.center, at: start)
    try monitor.startMonitoring(region("r"), assumingInside: false)
    #expect(walk(monitor, north: 0, from: 1, to: 60).isEmpty)
  }

  @Test func theStateIsAnsweredFromWhatTheOSBelievesNotFromWhereTheDeviceIs() throws {
    let monitor = monitor()
    _ = monitor.step(position: Self.point(north: 2000), at: start)
    try monitor.startMonitoring(region("r"))
    // The device is at the centre, but for 5 s only: the OS has not counted the crossing.
    var events = walk(monitor, north: 0, from: 1, to: 5)
    monitor.requestState("r")
    events += walk(monitor, north: 0, from: 6, to: 8)
    #expect(events.map(\.kind) == [.outside])
  }

  @Test func aFarJumpOfTheOSPositionGivesASpuriousEntry() throws {
    // The device never moves; a 1 km region lies 1.5 km north of it. Jumps
    // of 1.5 km for two minutes, six an hour, sometimes land the OS inside.
    var jumpy = Self.still
    jumpy.jumpsPerHour = 6
    jumpy.jumpMin = 1500
    jumpy.jumpMax = 1500
    jumpy.jumpSecondsMin = 120
    jumpy.jumpSecondsMax = 120
    var entries: [Int] = []
    for coarse in [Self.still, jumpy] {
      var count = 0
      for seed in 1...20 {
        let monitor = monitor(coarse: coarse, seed: UInt64(seed))
        _ = monitor.step(position: Self.center, at: start)
        try monitor.startMonitoring(PlannedRegion(id: "far", kind: .arrival, center: Self.point(north: 1500), radius: 1000, destinations: []))
        count += walk(monitor, north: 0, from: 1, to: 3600).filter { $0.kind == .entered }.count
      }
      entries.append(count)
    }
    #expect(entries[0] == 0, "no jumps, no entry")
    #expect(entries[1] > 0, "jumps give spurious entries")
    // The jumps come at the configured rate.
    let process = CoarsePositionProcess(config: jumpy, random: SimRandom(seed: 3))
    var jumped = 0
    var wasFar = false
    for t in 0..<36_000 {
      let far = process.sample(Self.center, at: start.addingTimeInterval(Double(t))).point.distance(to: Self.center) > 1000
      if far && !wasFar { jumped += 1 }
      wasFar = far
    }
    #expect(jumped >= 40 && jumped <= 80, "about six jumps an hour over ten hours, saw \(jumped)")
  }

  @Test func theOSPositionErrorPersistsInsteadOfBeingRedrawn() {
    var coarse = WorldConfig.CoarsePosition()
    coarse.wifiShare = 0.99
    coarse.sourceStretch = 100_000
    coarse.jumpsPerHour = 0
    let process = CoarsePositionProcess(config: coarse, random: SimRandom(seed: 8))
    // Errors 5 s apart are nearly the same (60 s correlation); their size is Wi-Fi's 20–90 m.
    var gaps: [Double] = []
    var sizes: [Double] = []
    var previous: Coordinate?
    for t in stride(from: 0, to: 20_000, by: 5) {
      let point = process.sample(Self.center, at: start.addingTimeInterval(Double(t))).point
      sizes.append(point.distance(to: Self.center))
      if let previous { gaps.append(point.distance(to: previous)) }
      previous = point
    }
    sizes.sort()
    gaps.sort()
    #expect(sizes[sizes.count / 2] > 25 && sizes[sizes.count / 2] < 60, "median error \(sizes[sizes.count / 2])")
    #expect(gaps[gaps.count / 2] < sizes[sizes.count / 2] / 2, "consecutive errors are correlated")
  }

  @Test func approximateLocationDisablesMonitoring() {
    let monitor = monitor()
    monitor.setAvailable(false)
    #expect(throws: RegionMonitorError.self) { try monitor.startMonitoring(region("r")) }
  }

  @Test func latencyFollowsTheWorldsDistributionForEachPositioning() throws {
    for wifi in [true, false] {
      var config = Self.exact
      config.latencyWiFiMedian = 20
      config.latencyWiFiP95 = 60
      config.latencyCellMedian = 180
      config.latencyCellP95 = 300
      var coarse = Self.still
      coarse.wifiShare = wifi ? 0.99 : 0.01
      coarse.sourceStretch = wifi ? 1 : 100_000
      var delays: [Double] = []
      for seed in 1...200 {
        let monitor = monitor(config, coarse: coarse, seed: UInt64(seed))
        _ = monitor.step(position: Self.point(north: 2000), at: start)
        try monitor.startMonitoring(region("r"))
        for t in 1...2000 {
          if let event = monitor.step(position: Self.center, at: start.addingTimeInterval(Double(t))).first {
            delays.append(event.at.timeIntervalSince(start) - 21)
            break
          }
        }
      }
      delays.sort()
      #expect(delays.count == 200)
      let median = wifi ? 20.0 : 180.0
      #expect(abs(delays[100] - median) < median * 0.3, "median \(delays[100]) (wifi \(wifi))")
    }
  }

  /// Android: a device still for long has its first crossings after it
  /// moves held back, up to `stationaryDelayMax`; one still for less, or
  /// an iOS monitor (no such delay), delivers after the dwell.
  @Test func aCrossingAfterALongStillnessWaitsForTheOSToWatchAgain() throws {
    var android = Self.exact
    android.stationaryAfter = 1800
    android.stationaryDelayMax = 360
    /// Seconds from the move into the region to the entry's delivery.
    func delay(_ config: WorldConfig.RegionMonitoring, stillFor still: Int, seed: UInt64) throws -> Double? {
      let monitor = monitor(config, seed: seed)
      _ = monitor.step(position: Self.point(north: 2000), at: start)
      try monitor.startMonitoring(region("r"))
      _ = walk(monitor, north: 2000, from: 1, to: still)
      for t in (still + 1)...(still + 1000) {
        if let event = monitor.step(position: Self.center, at: start.addingTimeInterval(Double(t))).first {
          #expect(event.kind == .entered)
          return event.at.timeIntervalSince(start) - Double(still + 1)
        }
      }
      return nil
    }
    let held = try (1...40).map { try #require(try delay(android, stillFor: 1900, seed: UInt64($0))) }
    #expect(held.allSatisfy { $0 >= 20 && $0 <= 360 + 1 }, "\(held)")
    #expect(held.filter { $0 > 60 }.count >= 25, "most held well past the dwell: \(held.sorted())")
    for seed in 1...10 {
      #expect(try delay(android, stillFor: 1500, seed: UInt64(seed)).map { $0 <= 21 } == true, "still for less than stationaryAfter")
      #expect(try delay(Self.exact, stillFor: 1900, seed: UInt64(seed)).map { $0 <= 21 } == true, "iOS")
    }
  }
}
