import Domain
import Engine
import Persistence
import TestSupport

/// An engine over an in-memory store with a manual clock and sequential ids,
/// with the store wrapped so tests can see every batch written.
struct EngineHarness {
  let clock = ManualClock(Fixtures.epoch)
  let store: RecordingOperationStore
  let engine: Engine

  init() {
    store = RecordingOperationStore(InMemoryOperationStore(replica: Fixtures.replica("test"), clock: clock))
    engine = Engine(context: EngineContext(store: store, clock: clock, ids: SequentialIDGenerator(prefix: "id")))
  }

  static func at(_ lat: Double, _ lon: Double) -> LocationSpec {
    LocationSpec(target: .coordinate(try! Coordinate(latitude: lat, longitude: lon)))
  }
}
