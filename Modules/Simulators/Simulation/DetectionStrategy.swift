import Domain
import Foundation

/// One way of catching arrivals, run against the same simulated world as
/// the others. A run returns when each reminder fired (second of the trip,
/// place) and what it cost.
public protocol DetectionStrategy: Sendable {
  var name: String { get }
  func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom) -> StrategyRun
}

/// A strategy driving the shipped engine, which can show what the phone and
/// the engine did second by second (`bench detection --explain`).
public protocol ObservableStrategy: DetectionStrategy {
  func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom, observe: ((Int, PhoneObservation) -> Void)?) -> StrategyRun
}

public struct StrategyRun: Sendable {
  public var fires: [(second: Int, place: Int)] = []
  /// What set off each fire, where the strategy can say (the OwnTracks
  /// rows: what the phone sent that second): one per fire, or empty.
  public var fireSources: [String] = []
  public var preciseSeconds: TimeInterval = 0
  /// Seconds of reduced-accuracy updates (Wi-Fi and cell, no GPS).
  public var reducedSeconds: TimeInterval = 0
  /// Background wakes (region events, significant changes, single fixes).
  public var wakes = 0
  /// Seconds background wakes kept the app awake.
  public var wakeSeconds: TimeInterval = 0
  public var replans = 0
  public var peakRegions = 0
  public var regionFailures = 0
  /// Counts of what the strategy did (session stops by reason, refusals…), for `--explain`.
  public var notes: [String: Int] = [:]

  public init() {}
}

/// The simulated phone a strategy drives: OS region monitor, location
/// services, and the power conditions of this trip.
struct SimulatedPhone {
  let monitor: SimulatedRegionMonitor
  let location: SimulatedLocation
  /// The OS's own coarse position, behind both.
  let coarse: CoarsePositionProcess
  let motion: SimulatedMotion
  /// (second, state): the power state from that second on.
  let power: [(Int, PowerStateChange)]

  struct PowerStateChange: Sendable {
    let lowPowerMode: Bool
    let seriousHeat: Bool
  }

  /// `regions` is the platform's region monitoring (iOS by default);
  /// `conditionMonitor`: the app monitors through CLMonitor, declaring
  /// each region's state (`RegionMonitor.declaresInitialState`);
  /// `movementByGPS`: the movement watch is iOS's live updates, else
  /// Android's activity transitions.
  init(
    world: WorldConfig, duration: Int, random: SimRandom, regions: WorldConfig.RegionMonitoring? = nil, conditionMonitor: Bool = false,
    movementByGPS: Bool = true
  ) {
    var random = random
    // One coarse position behind every non-GPS service, as on a phone.
    let coarse = CoarsePositionProcess(config: world.coarsePosition, random: random.fork(3))
    self.coarse = coarse
    motion = SimulatedMotion(config: world.motion)
    monitor = SimulatedRegionMonitor(
      config: regions ?? world.regionMonitoring, position: coarse, random: random.fork(1), declaresInitialState: conditionMonitor,
      stillSpeed: world.motion.stillSpeed)
    location = SimulatedLocation(world: world, coarse: coarse, random: random.fork(2), movementByGPS: movementByGPS)
    monitor.wake = { [location] now, count in location.deliver("region events", at: now, count: count) }
    var power: [(Int, PowerStateChange)] = []
    let lowPower = random.chance(world.lowPowerModeChance)
    power.append((0, PowerStateChange(lowPowerMode: lowPower, seriousHeat: false)))
    if random.chance(world.seriousHeatChance), duration > 1200 {
      let start = Int(random.next() % UInt64(duration - 600))
      power.append((start, PowerStateChange(lowPowerMode: lowPower, seriousHeat: true)))
      power.append((start + 600, PowerStateChange(lowPowerMode: lowPower, seriousHeat: false)))
    }
    self.power = power
  }

  /// Background wakes so far: region events, significant changes, single fixes.
  var wakes: Int { location.wakes }

  /// Watt-hours the phone's location work used so far.
  func energyWh(_ world: WorldConfig) -> Double {
    world.power.energyWh(
      gpsSeconds: location.preciseSeconds, awakeSeconds: location.wakeSeconds, reducedSeconds: location.reducedSeconds, reducedWatts: world.reducedAccuracy.watts)
  }

  /// What the phone's location work cost so far: GPS time and background wakes.
  func record(into run: inout StrategyRun) {
    run.preciseSeconds = location.preciseSeconds
    run.reducedSeconds = location.reducedSeconds
    run.wakes = wakes
    run.wakeSeconds = location.wakeSeconds
    for (cause, count) in location.wakesByCause { run.notes["wakes: " + cause] = count }
    run.peakRegions = monitor.peak
    run.regionFailures = monitor.failures
  }
}
