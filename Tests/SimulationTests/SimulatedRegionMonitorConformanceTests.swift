import Geofencing
import Simulation
import Testing
import TestSupport

@Suite struct SimulatedRegionMonitorConformanceTests {
  @Test func theSimulatedOSPassesTheSharedSuite() throws {
    try RegionMonitorConformance.verify { capacity in
      var config = WorldConfig.RegionMonitoring()
      config.capacity = capacity
      return SimulatedRegionMonitor(config: config, random: SimRandom(seed: 1))
    }
  }
}
