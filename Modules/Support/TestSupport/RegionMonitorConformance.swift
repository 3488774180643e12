import Domain
import Geofencing

/// The shared suite every `RegionMonitor` passes (the contract on the
/// protocol): capacity enforced without adding, replacing by id, stopping
/// unknown ids quietly, and `monitoredRegions` exactly what is running.
public enum RegionMonitorConformance {
  public static func verify(make: (Int) -> any RegionMonitor) throws {
    let monitor = make(3)
    try expect(monitor.capacity == 3, "capacity", "asked for 3, got \(monitor.capacity)")
    let regions = (0..<4).map { index in
      PlannedRegion(
        id: "wh:r\(index)", kind: .arrival,
        center: try! Coordinate(latitude: 60.17 + Double(index) * 0.01, longitude: 24.94), radius: 100, destinations: [])
    }
    for region in regions.prefix(3) { try monitor.startMonitoring(region) }
    try expect(monitor.monitoredRegions() == ["wh:r0", "wh:r1", "wh:r2"], "start", "monitoring \(monitor.monitoredRegions())")
    do {
      try monitor.startMonitoring(regions[3])
      throw ConformanceViolation(check: "capacity", detail: "a fourth region was accepted at capacity 3")
    } catch let error as RegionMonitorError {
      try expect(error == .overCapacity(capacity: 3), "capacity", "threw \(error)")
    }
    try expect(!monitor.monitoredRegions().contains("wh:r3"), "capacity", "the refused region was added")
    let moved = PlannedRegion(id: "wh:r1", kind: .arrival, center: regions[3].center, radius: 200, destinations: [])
    try monitor.startMonitoring(moved)
    try expect(monitor.monitoredRegions().count == 3, "replace", "starting a monitored id again added one")
    monitor.stopMonitoring("wh:unknown")
    monitor.stopMonitoring("wh:r0")
    try expect(monitor.monitoredRegions() == ["wh:r1", "wh:r2"], "stop", "monitoring \(monitor.monitoredRegions())")
    try monitor.startMonitoring(regions[3])
    try expect(monitor.monitoredRegions() == ["wh:r1", "wh:r2", "wh:r3"], "room", "a stop did not free room: \(monitor.monitoredRegions())")
    monitor.requestState("wh:r1")
    // A declared state (or none, for a monitor that cannot declare one) starts and replaces like any start.
    do {
      try monitor.startMonitoring(regions[0], assumingInside: true)
      throw ConformanceViolation(check: "capacity", detail: "a declared start went past capacity 3")
    } catch let error as RegionMonitorError {
      try expect(error == .overCapacity(capacity: 3), "capacity", "a declared start threw \(error)")
    }
    monitor.stopMonitoring("wh:r2")
    try monitor.startMonitoring(regions[0], assumingInside: false)
    try monitor.startMonitoring(regions[0], assumingInside: true)
    try expect(monitor.monitoredRegions() == ["wh:r0", "wh:r1", "wh:r3"], "declared start", "monitoring \(monitor.monitoredRegions())")
  }
}
