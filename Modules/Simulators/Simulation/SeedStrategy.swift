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
    // The card knows neither reduced-accuracy updates nor visit monitoring.
    config.follow.enabled = false
    config.follow.visits = false
    // The card fires on an arrival region's entry as the OS reports it.
    config.session.confirmArrivals = false
    return SeedStrategy(name: "seed", config: config)
  }()

  public static let shipped = SeedStrategy(name: "whilehere", config: ArrivalConfig())

  /// The shipped engine with `arrival.session.confirmArrivals` off: the OS's entry fires.
  public static let unconfirmed: SeedStrategy = {
    var config = ArrivalConfig()
    config.session.confirmArrivals = false
    return SeedStrategy(name: "whilehere-unconfirmed", config: config)
  }()

  public let name: String
  let config: ArrivalConfig
  /// One task per place (the benchmark), or one task tied to every place (a replay's `--task`).
  public var singleTask: String?

  public init(name: String = "seed", config: ArrivalConfig = ArrivalConfig(), singleTask: String? = nil) {
    self.name = name
    self.config = config
    self.singleTask = singleTask
  }

  /// The benchmark's tasks: one per place, the tasks a tasks file ties
  /// places into (`places.taskOf`), or one for every place (`singleTask`).
  public func tasks(_ places: PlaceSet, at start: Date) -> [ReminderTask] {
    func location(_ place: PlaceSet.Place) -> TaskLocation {
      TaskLocation(id: LocationID("l\(place.id)"), target: .coordinate(place.center), radius: place.radius)
    }
    if let singleTask {
      return [try! ReminderTask(id: TaskID("task"), title: singleTask, locations: places.places.map(location), createdAt: start)]
    }
    var order: [Int] = []
    var members: [Int: [PlaceSet.Place]] = [:]
    for place in places.places {
      let task = places.taskOf[place.id]
      if members[task] == nil { order.append(task) }
      members[task, default: []].append(place)
    }
    return order.map { task in
      let tied = members[task]!
      return try! ReminderTask(
        id: TaskID(String(task)), title: places.taskNames[task] ?? tied[0].name, locations: tied.map(location), createdAt: start)
    }
  }

  public func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom) -> StrategyRun {
    run(trip: trip, world: world, places: places, random: random, observe: nil)
  }

  public func run(
    trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom, observe: ((Int, PhoneObservation) -> Void)?
  ) -> StrategyRun {
    var random = random
    let phone = SimulatedPhone(world: world, duration: trip.positions.count, random: random.fork(10))
    let clock = ManualClock(trip.start)
    let store = InMemoryOperationStore(replica: try! ReplicaID("sim"), clock: clock)
    _ = try? store.append(tasks(places, at: trip.start).map { .put(.task($0)) })
    let driver = PhoneDriver(
      world: world, phone: phone, context: EngineContext(store: store, clock: clock, ids: SequentialIDGenerator()),
      clock: clock, config: config, sink: RecordingNotificationSink())
    var result = StrategyRun()
    for (second, position) in trip.positions.enumerated() {
      for observation in driver.step(second: second, position: position, at: trip.time(second)) {
        observe?(second, observation)
        guard case .engine(let event) = observation else { continue }
        result.count(event, at: second)
      }
    }
    phone.record(into: &result)
    return result
  }
}
