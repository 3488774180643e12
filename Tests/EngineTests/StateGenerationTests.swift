import Domain
import Engine
import Foundation
import Geofencing
import Locking
import Notifications
import Persistence
import Testing
import TestSupport

/// The arrival engine takes the store's state again only when the store
/// says it changed, and a change it says is seen at the next step, also
/// one the engine was not told of.
@Suite struct StateGenerationTests {
  /// A store that gives a generation, bumped by every write, and counts
  /// how often its state is read.
  final class CountingStore: OperationStore {
    let base: InMemoryOperationStore
    let counts = Locked((generation: 0, reads: 0))

    init(clock: ManualClock) { base = InMemoryOperationStore(replica: Fixtures.replica("gen"), clock: clock) }

    var reads: Int { counts.withLock { $0.reads } }
    var replica: ReplicaID { base.replica }
    var stateGeneration: Int? { counts.withLock { $0.generation } }

    @discardableResult
    func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
      defer { counts.withLock { $0.generation += 1 } }
      return try base.append(operations)
    }

    @discardableResult
    func merge(_ records: [OperationRecord]) throws -> [OperationRecord] {
      defer { counts.withLock { $0.generation += 1 } }
      return try base.merge(records)
    }

    func state() -> StoreState {
      counts.withLock { $0.reads += 1 }
      return base.state()
    }

    func operations(since: HLCTimestamp?) throws -> [OperationRecord] { try base.operations(since: since) }
    func describe() -> StoreDescription { base.describe() }
    func close() { base.close() }
  }

  let clock = ManualClock(Fixtures.epoch)
  let store: CountingStore
  let engine: Engine
  let phone: PhoneService

  init() {
    store = CountingStore(clock: clock)
    engine = Engine(context: EngineContext(store: store, clock: clock, ids: SequentialIDGenerator(prefix: "t")))
    phone = PhoneService(context: engine.context, scheduler: NotificationScheduler(sink: RecordingNotificationSink()), config: ArrivalConfig(), capacity: 20)
  }

  func at(north meters: Double) -> PhoneReport {
    .location(PhoneFix(coordinate: ArrivalHarness.point(north: meters), accuracy: 10, at: clock.now()))
  }

  @Test func fixesWhileNothingChangesDoNotReadTheState() throws {
    _ = try engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 3000)), radius: 150)])
    _ = phone.receive(at(north: 0))
    clock.advance(by: 60)
    _ = phone.receive(at(north: 10))
    let reads = store.reads
    for step in 1...5 {
      clock.advance(by: 60)
      _ = phone.receive(at(north: 10 + Double(step)))
    }
    #expect(store.reads == reads, "the state was read again though the store said it had not changed")
  }

  @Test func aTaskWrittenWithoutTellingTheEngineFiresAtTheNextFix() throws {
    _ = try engine.tasks.add(title: "Post letter", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 3000)), radius: 150)])
    _ = phone.receive(at(north: 0))
    clock.advance(by: 60)
    #expect(phone.receive(at(north: 10)).reminders.isEmpty)
    // Written behind the engine's back, as another process's write read
    // by a refresh would be: no `tasksChanged`.
    _ = try engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 20)), radius: 150)])
    clock.advance(by: 60)
    #expect(phone.receive(at(north: 15)).reminders.map(\.title) == ["Buy milk"])
  }
}
