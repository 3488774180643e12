import Domain
import Foundation
import Geofencing
import Testing
import TestSupport

@Suite struct PhoneRegionMonitorTests {
  static let center = try! Coordinate(latitude: 60.17, longitude: 24.94)
  static func north(_ meters: Double) -> Coordinate { try! Coordinate(latitude: center.latitude + meters / 111_195, longitude: center.longitude) }
  let at = Date(timeIntervalSince1970: 1_780_000_000)

  @Test func everyRegionMonitorPassesTheSharedSuite() throws {
    try RegionMonitorConformance.verify { PhoneRegionMonitor(capacity: $0) }
    try RegionMonitorConformance.verify { RecordingRegionMonitor(capacity: $0) }
  }

  @Test func commandsAreSentOncePerChangeWithStableDistinctStamps() throws {
    let monitor = PhoneRegionMonitor(capacity: 20)
    #expect(monitor.takeCommands().isEmpty)
    try monitor.startMonitoring(PlannedRegion(id: "wh:a", kind: .arrival, center: Self.center, radius: 100, destinations: []))
    try monitor.startMonitoring(PlannedRegion(id: "wh:b", kind: .approach, center: Self.north(300), radius: 400, destinations: []))
    let first = monitor.takeCommands()
    guard first.count == 2, first[0] == .clearRegions, case .setRegions(let regions) = first[1] else {
      Issue.record("expected clear then set, got \(first)")
      return
    }
    #expect(regions.map(\.id) == ["wh:a", "wh:b"])
    #expect(Set(regions.map(\.stamp)).count == 2)
    #expect(monitor.takeCommands().isEmpty)
    monitor.stopMonitoring("wh:b")
    guard case .setRegions(let after)? = monitor.takeCommands().last else {
      Issue.record("no new set after a stop")
      return
    }
    #expect(after.map(\.id) == ["wh:a"])
    #expect(after[0].stamp == regions[0].stamp)
  }

  @Test func aPhonesTransitionIsMatchedByIdStampOrName() throws {
    let monitor = PhoneRegionMonitor(capacity: 20)
    try monitor.startMonitoring(PlannedRegion(id: "wh:a", kind: .arrival, center: Self.center, radius: 100, destinations: []))
    guard case .setRegions(let regions)? = monitor.takeCommands().last else {
      Issue.record("no regions")
      return
    }
    func transition(id: String? = nil, stamp: Int? = nil, name: String? = nil) -> PhoneTransition {
      PhoneTransition(entered: true, regionID: id, stamp: stamp, name: name, fix: nil, at: at)
    }
    #expect(monitor.region(for: transition(id: "wh:a")) == "wh:a")
    #expect(monitor.region(for: transition(stamp: regions[0].stamp)) == "wh:a")
    #expect(monitor.region(for: transition(name: "wh:a")) == "wh:a")
    #expect(monitor.region(for: transition(id: "Home", stamp: 12, name: "Home")) == nil)
  }
}
