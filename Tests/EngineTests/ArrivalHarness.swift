import Domain
import Engine
import Foundation
import Geofencing
import Notifications
import Persistence
import Synchronization
import TestSupport

final class FakePrecise: PreciseLocationControl {
  let on = Mutex(false)
  var isOn: Bool { on.withLock { $0 } }
  func startPreciseUpdates() { on.withLock { $0 = true } }
  func stopPreciseUpdates() { on.withLock { $0 = false } }
  let singleFixes = Mutex(0)
  func requestSingleFix() { singleFixes.withLock { $0 += 1 } }
}

/// An arrival engine over an in-memory store, a manual clock, a recording
/// region monitor, a fake GPS switch and a recording notification sink.
struct ArrivalHarness {
  let clock: ManualClock
  let store: any OperationStore
  let engine: Engine
  let monitor: RecordingRegionMonitor
  let precise = FakePrecise()
  let sink = RecordingNotificationSink()
  let arrivals: ArrivalService

  static let home = try! Coordinate(latitude: 60.17, longitude: 24.94)

  init(store: (any OperationStore)? = nil, clock: ManualClock = ManualClock(Fixtures.epoch), capacity: Int = 20, config: ArrivalConfig = ArrivalConfig()) {
    self.clock = clock
    self.store = store ?? InMemoryOperationStore(replica: Fixtures.replica("test"), clock: clock)
    engine = Engine(context: EngineContext(store: self.store, clock: clock, ids: SequentialIDGenerator(prefix: "id")))
    monitor = RecordingRegionMonitor(capacity: capacity)
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

  func region(of task: ReminderTask, kind: PlannedRegion.Kind = .arrival) -> PlannedRegion? {
    arrivals.currentPlan.regions.first { $0.kind == kind && $0.destinations.contains { $0.task == task.id } }
  }

  func reminders(_ events: [ArrivalEvent]) -> [String] {
    events.compactMap { if case .reminder(.delivered(let n)) = $0 { return n.title } else { return nil } }
  }
}
