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

  public init(name: String = "seed", config: ArrivalConfig = ArrivalConfig()) {
    self.name = name
    self.config = config
  }

  public func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom) -> StrategyRun {
    var random = random
    let phone = SimulatedPhone(world: world, trip: trip, random: random.fork(10))
    let clock = ManualClock(trip.start)
    let store = InMemoryOperationStore(replica: try! ReplicaID("sim"), clock: clock)
    _ = try? store.append(places.places.map { place in
      .put(.task(try! ReminderTask(
        id: TaskID(String(place.id)), title: place.name,
        locations: [TaskLocation(id: LocationID("l1"), target: .coordinate(place.center), radius: place.radius)],
        createdAt: trip.start)))
    })
    let sink = RecordingNotificationSink()
    let engine = ArrivalService(
      context: EngineContext(store: store, clock: clock, ids: SequentialIDGenerator()), monitor: phone.monitor,
      precise: phone.location, scheduler: NotificationScheduler(sink: sink), config: config)
    var result = StrategyRun()
    var battery = world.power.startBattery
    var powerIndex = 0
    func absorb(_ events: [ArrivalEvent], second: Int) {
      for event in events {
        switch event {
        case .planned: result.replans += 1
        case .reminder(.delivered(let notification)), .reminder(.suppressed(let notification, _)):
          if let place = Int(notification.task.rawValue) { result.fires.append((second, place)) }
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
