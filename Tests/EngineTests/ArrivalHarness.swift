import Domain
import Engine
import Foundation
import Geofencing
import Locking
import Notifications
import Persistence
import TestSupport
import Testing

final class FakePrecise: PreciseLocationControl {
  /// False: a phone like the OwnTracks apps, with no reduced-accuracy updates.
  let offersReducedUpdates: Bool
  /// True: a phone with live updates' stationary pause (iOS 17).
  let offersMovementWatch: Bool
  /// GPS seconds a watch costs (live updates: a GPS update to start and one to wake).
  let movementWatchCharge: TimeInterval
  init(offersReducedUpdates: Bool = true, offersMovementWatch: Bool = false, movementWatchCharge: TimeInterval = 0) {
    self.offersReducedUpdates = offersReducedUpdates
    self.offersMovementWatch = offersMovementWatch
    self.movementWatchCharge = movementWatchCharge
  }
  /// Whether a movement watch runs, and how many were started.
  let watch = Locked((on: false, started: 0))
  func watchForMovement() { watch.withLock { $0 = (true, $0.started + 1) } }
  func stopWatchingForMovement() { watch.withLock { $0.on = false } }
  let on = Locked(false)
  var isOn: Bool { on.withLock { $0 } }
  func startPreciseUpdates() { on.withLock { $0 = true } }
  func stopPreciseUpdates() { on.withLock { $0 = false } }
  let singleFixes = Locked(0)
  func requestSingleFix() { singleFixes.withLock { $0 += 1 } }
  let withdrawals = Locked(0)
  func withdrawSingleFix() { withdrawals.withLock { $0 += 1 } }
  /// The distance filter of the reduced-accuracy updates asked for; nil while off.
  let reduced = Locked<Double?>(nil)
  var reducedFilter: Double? { reduced.withLock { $0 } }
  func startReducedUpdates(distanceFilter: Double) { reduced.withLock { $0 = distanceFilter } }
  func stopReducedUpdates() { reduced.withLock { $0 = nil } }
  let visitsOn = Locked(false)
  func startVisitMonitoring() { visitsOn.withLock { $0 = true } }
  let significantOn = Locked(false)
  func startSignificantChanges() { significantOn.withLock { $0 = true } }
  func stopSignificantChanges() { significantOn.withLock { $0 = false } }
}

/// An arrival engine over an in-memory store, a manual clock, a recording
/// region monitor, a fake GPS switch and a recording notification sink.
struct ArrivalHarness {
  let clock: ManualClock
  let store: any OperationStore
  let engine: Engine
  let monitor: RecordingRegionMonitor
  let precise: FakePrecise
  let sink = RecordingNotificationSink()
  let arrivals: ArrivalService

  static let home = try! Coordinate(latitude: 60.17, longitude: 24.94)

  init(
    store: (any OperationStore)? = nil, clock: ManualClock = ManualClock(Fixtures.epoch), capacity: Int = 20, config: ArrivalConfig = ArrivalConfig(),
    reducedUpdates: Bool = true, declaresInitialState: Bool = false, movementWatch: Bool = false,
    watchCharge: TimeInterval = 0
  ) {
    self.clock = clock
    precise = FakePrecise(offersReducedUpdates: reducedUpdates, offersMovementWatch: movementWatch, movementWatchCharge: watchCharge)
    self.store = store ?? InMemoryOperationStore(replica: Fixtures.replica("test"), clock: clock)
    // Opening hours are read in UTC here, whatever the machine's zone.
    engine = Engine(
      context: EngineContext(store: self.store, clock: clock, ids: SequentialIDGenerator(prefix: "id"), timeZone: TimeZone(identifier: "UTC")!))
    monitor = RecordingRegionMonitor(capacity: capacity, declaresInitialState: declaresInitialState)
    arrivals = ArrivalService(
      context: engine.context, monitor: monitor, precise: precise, scheduler: NotificationScheduler(sink: sink), config: config)
  }

  static func point(north meters: Double, east: Double = 0) -> Coordinate {
    try! Coordinate(latitude: home.latitude + meters / 111_195, longitude: home.longitude + east / (111_195 * cos(home.latitude * .pi / 180)))
  }

  @discardableResult
  func task(_ title: String, north: Double, east: Double = 0, radius: Double = 100) throws -> ReminderTask {
    try engine.tasks.add(title: title, locations: [LocationSpec(target: .coordinate(Self.point(north: north, east: east)), radius: radius)])
  }

  /// An engine that fires on the OS's entry (`confirmArrivals` off),
  /// watching one task 1 km north of home: the harness and that task's arrival region.
  static func unconfirmedWatchingMilk() throws -> (ArrivalHarness, PlannedRegion) {
    var config = ArrivalConfig()
    config.session.confirmArrivals = false
    let h = ArrivalHarness(config: config)
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(home, accuracy: 65)
    return (h, try #require(h.region(of: milk)))
  }

  func region(of task: ReminderTask, kind: PlannedRegion.Kind = .arrival) -> PlannedRegion? {
    arrivals.currentPlan.regions.first { $0.kind == kind && $0.destinations.contains { $0.task == task.id } }
  }

  func reminders(_ events: [ArrivalEvent]) -> [String] {
    events.compactMap { if case .reminder(.delivered(let n)) = $0 { return n.title } else { return nil } }
  }
}
