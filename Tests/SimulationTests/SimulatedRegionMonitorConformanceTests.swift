import Geofencing
import Simulation
import Testing
import TestSupport

@Suite struct SimulatedRegionMonitorConformanceTests {
  @Test func theSimulatedOSPassesTheSharedSuite() {
    var made: [SimulatedRegionMonitor] = []
    #expect(throws: Never.self) {
      try RegionMonitorConformance.verify { capacity in
        var config = WorldConfig.RegionMonitoring()
        config.capacity = capacity
        let monitor = SimulatedRegionMonitor(config: config, random: SimRandom(seed: 1))
        made.append(monitor)
        return monitor
      }
    }
    // The suite ends with three regions watched at capacity three: the peak the OS saw.
    #expect(made.first?.peak == 3)
    #expect(made.first?.failures == 2, "the fourth region was refused, then a declared start at capacity")
  }
}
