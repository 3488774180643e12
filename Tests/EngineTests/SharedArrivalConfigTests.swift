import Foundation
import Geofencing
import Persistence
import Testing

@testable import Engine

/// Engines made with equal configurations share one copy of it while any
/// lives, each still planning within its own monitor's capacity, and a
/// program that makes engines of many configurations does not keep them.
@Suite struct SharedArrivalConfigTests {
  func machine(_ config: ArrivalConfig, capacity: Int) -> ArrivalMachine {
    ArrivalMachine(config: config, capacity: capacity, world: ArrivalMachine.World(now: Date(), state: StoreState(), monitored: []))
  }

  /// A configuration no other test makes, so what other tests run at the same time cannot hold it.
  func unique(_ n: Int) -> ArrivalConfig {
    var config = ArrivalConfig()
    config.exitMargin = 50 + Double(n) / 1_000 + Double(UInt32.random(in: 1...UInt32.max)) / 1e12
    return config
  }

  @Test func equalConfigurationsShareOneCopyWhileAnEngineLives() {
    let config = unique(1)
    let first = machine(config, capacity: 20)
    let second = machine(config, capacity: 20)
    #expect(first.shared === second.shared)
    var other = config
    other.refireCooldown += 1
    let third = machine(other, capacity: 20)
    #expect(third.shared !== first.shared)
    #expect(third.config == other && first.config == config)
  }

  @Test func eachEnginePlansWithinItsOwnCapacity() {
    let config = unique(2)
    #expect(config.coverage.osCapacity == 20)
    let small = machine(config, capacity: 5)
    let large = machine(config, capacity: 20)
    #expect(small.shared !== large.shared)
    #expect(small.planner.config.osCapacity == 5)
    #expect(large.planner.config.osCapacity == 20)
    #expect(small.config == config && large.config == config)
  }

  @Test func configurationsNoEngineUsesAreDropped() {
    let made = 2_000
    for n in 0..<made {
      let config = unique(1_000 + n)
      #expect(machine(config, capacity: 20).config == config)
    }
    // Without dropping, every one of them would still be held.
    #expect(SharedArrivalConfig.held < made / 4)
  }
}
