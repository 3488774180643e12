import Domain
import Engine
import Foundation
import Notifications
import Persistence
@testable import Simulation
import Testing
import TestSupport

/// A phone's own app runs only while the OS keeps it running (location
/// updates on) or wakes it: its timers do not run while it is suspended.
/// The simulated phone used to run the engine's timers every second
/// whatever the app's state, which let a session resting its GPS resume
/// by a timer no suspended app has.
@Suite struct SuspendedAppTests {
  static let home = try! Coordinate(latitude: 60.17, longitude: 24.94)

  /// The phone sitting at home for `seconds`, with no task to watch: how
  /// many seconds the engine's timers ran, and how many the app ran.
  func driven(seconds: Int = 900) throws -> (ticks: Int, awake: Int) {
    let world = WorldConfig()
    let start = Date(timeIntervalSince1970: 1_780_000_000)
    let phone = SimulatedPhone(world: world, duration: seconds, random: SimRandom(seed: 3))
    let clock = ManualClock(start)
    let store = InMemoryOperationStore(replica: try ReplicaID("sim"), clock: clock)
    let driver = PhoneDriver(
      world: world, phone: phone, context: EngineContext(store: store, clock: clock, ids: SequentialIDGenerator()), clock: clock,
      config: ArrivalConfig(), sink: RecordingNotificationSink())
    var awake = 0
    for second in 0..<seconds {
      _ = driver.step(second: second, position: Self.home, at: start.addingTimeInterval(Double(second)))
      if phone.location.isAppAwake { awake += 1 }
    }
    return (driver.ticks, awake)
  }

  @Test func aSuspendedAppRunsNoTimers() throws {
    // Sitting at home for a quarter of an hour with nothing to follow.
    let run = try driven()
    #expect(run.ticks < 900 / 4, "the engine's timers ran in \(run.ticks) of 900 seconds (the app ran in \(run.awake))")
    #expect(run.ticks >= run.awake, "every second the app ran, its timers ran")
  }
}
