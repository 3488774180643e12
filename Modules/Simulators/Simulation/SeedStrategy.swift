import Domain
import Engine
import Foundation
import Geofencing
import Notifications
import Persistence

/// The arrival engine on the simulated OS. `seed` is the design card (7
/// destinations, shared approach zones, budgeted precise sessions, replans
/// on significant change); `whilehere` is what ships: the same plus the
/// coverage edge region and replans from session fixes; `whilehere-android`
/// is what ships on an Android phone.
public struct SeedStrategy: ObservableStrategy {
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

  /// The same engine on an Android phone (a native app, not OwnTracks):
  /// Play services geofencing (100 regions, alerts about 2 minutes late),
  /// no visit monitoring, and for significant changes, which Android does
  /// not offer, the fused provider's balanced-power updates under a
  /// foreground service, asked with iOS's 500 m and 5 minutes. Motion
  /// (Activity Recognition), reduced-accuracy updates and precise sessions
  /// as on iOS; the same power figures; its movement watch is Activity
  /// Recognition's transitions (a wake on leaving STILL, no GPS).
  public static let android: SeedStrategy = {
    var config = ArrivalConfig()
    config.follow.visits = false
    return SeedStrategy(name: "whilehere-android", config: config, platform: .android)
  }()

  /// The shipped engine on iOS 17's CLMonitor instead of
  /// CLLocationManager's region monitoring: each region is added with a
  /// declared state (`ArrivalService.declaredInside`) and the OS reports
  /// its own finding only where it differs, instead of the engine asking
  /// `requestState` for regions the plan's origin lies in.
  public static let conditionMonitor: SeedStrategy = {
    var strategy = SeedStrategy(name: "whilehere-clmonitor", config: ArrivalConfig())
    strategy.conditionMonitor = true
    return strategy
  }()

  /// The shipped engine keeping every region on the OS while the device
  /// sits still (`arrival.coverage.muteWhileWatched` off): what shipped
  /// before live updates watched for movement.
  public static let regionsKept: SeedStrategy = {
    var config = ArrivalConfig()
    config.coverage.muteWhileWatched = false
    return SeedStrategy(name: "whilehere-regions-kept", config: config)
  }()

  /// Regions taken off while still with nothing to watch for movement
  /// (`muteWhileStill` on, `muteWhileWatched` off): they come back at the
  /// next wake after the person got up.
  public static let mutedUnwatched: SeedStrategy = {
    var config = ArrivalConfig()
    config.coverage.muteWhileStill = true
    config.coverage.muteWhileWatched = false
    return SeedStrategy(name: "whilehere-mute-unwatched", config: config)
  }()

  /// A wake-up fix when a plan went two minutes unmoved through cell-grade
  /// positions while following (`arrival.follow.cellWakeAfter` 120 s: at
  /// walking pace the person is then about as far from where the plan was
  /// made as a Wi-Fi position must be to move it, 150 m).
  public static let cellWake: SeedStrategy = {
    var config = ArrivalConfig()
    config.follow.cellWakeAfter = 120
    return SeedStrategy(name: "whilehere-cell-wake", config: config)
  }()

  /// The shipped engine with an engine file's keys laid over its settings
  /// (`--engine FILE`: the config file's `arrival` keys), measured beside
  /// `whilehere` on the same person-days. Its row is `engine-` and the
  /// settings' hash, so two files never share a name.
  public static func candidate(_ data: Data, source: String) throws -> SeedStrategy {
    let config = try JSONOverlay.decode(data, over: ArrivalConfig(), source: source, kind: "engine file")
    return SeedStrategy(name: candidatePrefix + JSONOverlay.hash(config), config: config)
  }

  /// What `--strategies` and `--strategy` call a candidate row.
  public static let candidatePrefix = "engine-"

  public let name: String
  let config: ArrivalConfig
  /// The phone the engine runs on.
  public var platform: OwnTracksApp.Platform = .iOS
  /// Regions through CLMonitor with declared states (iOS only).
  public var conditionMonitor = false
  /// One task per place (the benchmark), or one task tied to every place (a replay's `--task`).
  public var singleTask: String?

  public init(name: String = "seed", config: ArrivalConfig = ArrivalConfig(), singleTask: String? = nil, platform: OwnTracksApp.Platform = .iOS) {
    self.name = name
    self.config = config
    self.singleTask = singleTask
    self.platform = platform
  }

  /// The world and engine settings on this strategy's platform: on Android
  /// its geofencing and balanced-power updates for significant changes. The
  /// planner keeps iOS's 13 destinations: with 65 (the same share of 100
  /// regions) the approach zones' entries started sessions that spent the
  /// allowance, and fewer visits were caught (Docs/Benchmarks.md).
  public func onPlatform(_ world: WorldConfig) -> (world: WorldConfig, config: ArrivalConfig, regions: WorldConfig.RegionMonitoring) {
    guard platform == .android else { return (world, config, world.regionMonitoring) }
    var phoneWorld = world
    phoneWorld.significantChange = .androidBalancedPower(interval: world.significantChange.minInterval, displacement: world.significantChange.minDistance)
    var config = config
    config.coverage.osCapacity = world.androidGeofencing.capacity
    return (phoneWorld, config, world.androidGeofencing)
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
    let (world, config, regions) = onPlatform(world)
    let phone = SimulatedPhone(
      world: world, duration: trip.positions.count, random: random.fork(10), regions: regions, conditionMonitor: conditionMonitor && platform == .iOS,
      movementByGPS: platform == .iOS)
    let clock = ManualClock(trip.start)
    let store = InMemoryOperationStore(replica: try! ReplicaID("sim"), clock: clock)
    _ = try? store.append(tasks(places, at: trip.start).map { .put(.task($0)) })
    let driver = PhoneDriver(
      world: world, phone: phone, context: EngineContext(store: store, clock: clock, ids: SequentialIDGenerator()),
      clock: clock, config: config, sink: RecordingNotificationSink())
    var result = StrategyRun()
    for (second, position) in trip.positions.enumerated() {
      let observed = driver.step(second: second, position: position, at: trip.time(second))
      for (observation, source) in zip(observed, driver.sources) {
        observe?(second, observation)
        guard case .engine(let event) = observation else { continue }
        let before = result.fires.count
        result.count(event, at: second)
        result.fireSources += Array(repeating: source, count: result.fires.count - before)
      }
    }
    phone.record(into: &result)
    return result
  }
}
