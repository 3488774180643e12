import Domain
import Engine
import Foundation
import Geofencing
import Notifications
import Persistence

/// The arrival engine on the simulated OS. `seed` is the design card (7
/// destinations, shared approach zones, budgeted precise sessions, replans
/// on significant change); `whilehere` is what ships: the same plus the
/// coverage edge region and replans from session fixes.
public struct SeedStrategy: DetectionStrategy {
  public static let designCard: SeedStrategy = {
    var config = ArrivalConfig()
    config.coverage = .designCard
    return SeedStrategy(name: "seed", config: config)
  }()

  public static let shipped = SeedStrategy(name: "whilehere", config: ArrivalConfig())

  public let name: String
  let config: ArrivalConfig
  /// One task per place (the benchmark), or one task tied to every place (a replay's `--task`).
  public var singleTask: String?

  public init(name: String = "seed", config: ArrivalConfig = ArrivalConfig(), singleTask: String? = nil) {
    self.name = name
    self.config = config
    self.singleTask = singleTask
  }

  func tasks(_ places: PlaceSet, at start: Date) -> [ReminderTask] {
    func location(_ place: PlaceSet.Place) -> TaskLocation {
      TaskLocation(id: LocationID("l\(place.id)"), target: .coordinate(place.center), radius: place.radius)
    }
    if let singleTask {
      return [try! ReminderTask(id: TaskID("task"), title: singleTask, locations: places.places.map(location), createdAt: start)]
    }
    return places.places.map { place in
      try! ReminderTask(id: TaskID(String(place.id)), title: place.name, locations: [location(place)], createdAt: start)
    }
  }

  /// What a replay shows: the OS's region events and the engine's actions, by trip second.
  public enum Observation: Sendable {
    case region(RegionEvent)
    case engine(ArrivalEvent)
  }

  public func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom) -> StrategyRun {
    run(trip: trip, world: world, places: places, random: random, observe: nil)
  }

  public func run(
    trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom, observe: ((Int, Observation) -> Void)?
  ) -> StrategyRun {
    var random = random
    let phone = SimulatedPhone(world: world, trip: trip, random: random.fork(10))
    let clock = ManualClock(trip.start)
    let store = InMemoryOperationStore(replica: try! ReplicaID("sim"), clock: clock)
    _ = try? store.append(tasks(places, at: trip.start).map { .put(.task($0)) })
    let sink = RecordingNotificationSink()
    let engine = ArrivalService(
      context: EngineContext(store: store, clock: clock, ids: SequentialIDGenerator()), monitor: phone.monitor,
      precise: phone.location, scheduler: NotificationScheduler(sink: sink), config: config)
    var result = StrategyRun()
    var battery = world.power.startBattery
    var powerIndex = 0
    func absorb(_ events: [ArrivalEvent], second: Int) {
      for event in events {
        observe?(second, .engine(event))
        switch event {
        case .planned: result.replans += 1
        case .reminder(.delivered(let notification)), .reminder(.suppressed(let notification, _)):
          if let place = Int(notification.location.rawValue.dropFirst()) { result.fires.append((second, place)) }
        case .sessionStarted: result.notes["session started", default: 0] += 1
        case .sessionStopped(let reason, _): result.notes["session stopped: \(reason.rawValue)", default: 0] += 1
        case .sessionRefused(let reason): result.notes["session refused: \(reason.prefix(40))", default: 0] += 1
        case .wakeFixRequested: result.notes["wake fix", default: 0] += 1
        case .installFailed: result.notes["install failed", default: 0] += 1
        default: break
        }
      }
    }
    for (second, position) in trip.positions.enumerated() {
      clock.set(trip.time(second))
      if powerIndex < phone.power.count, phone.power[powerIndex].0 <= second {
        let change = phone.power[powerIndex].1
        absorb(engine.powerChanged(PowerState(battery: battery, lowPowerMode: change.lowPowerMode, thermal: change.seriousHeat ? .serious : .nominal)), second: second)
        powerIndex += 1
      }
      if let fix = phone.location.significantChange(position: position, at: clock.now()) {
        absorb(engine.significantChange(fix.point, accuracy: fix.accuracy), second: second)
      }
      for event in phone.monitor.step(position: position, at: clock.now()) {
        observe?(second, .region(event))
        absorb(engine.regionEvent(event), second: second)
      }
      if let fix = phone.location.preciseFix(position: position, at: clock.now()) {
        absorb(engine.preciseFix(fix.point, accuracy: fix.accuracy), second: second)
        battery -= world.power.gpsWatts * world.power.overhead / 3600 / world.power.batteryWh
      }
      absorb(engine.tick(), second: second)
    }
    result.preciseSeconds = phone.location.preciseSeconds
    result.peakRegions = phone.monitor.peak
    result.regionFailures = phone.monitor.failures
    return result
  }
}
