import Domain
import Engine
import Foundation
import Geofencing
import Locking
import Persistence
import Testing
import TestSupport

/// The arrival engine as a state machine: one input, a snapshot of the
/// world, effects out in order; no port is touched while it decides.
@Suite struct ArrivalMachineTests {
  let clock = ManualClock(Fixtures.epoch)
  let store: InMemoryOperationStore
  let engine: Engine

  init() {
    store = InMemoryOperationStore(replica: Fixtures.replica("machine"), clock: clock)
    engine = Engine(context: EngineContext(store: store, clock: clock, ids: SequentialIDGenerator(prefix: "m")))
  }

  func world(monitored: Set<String> = []) -> ArrivalMachine.World {
    ArrivalMachine.World(now: clock.now(), state: store.state(), monitored: monitored)
  }

  /// A machine that planned from home with "Buy milk" 1 km north, and what it installed.
  func planned() throws -> (ArrivalMachine, Set<String>, PlannedRegion) {
    _ = try engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 1000)), radius: 100)])
    var machine = ArrivalMachine(config: ArrivalConfig(), capacity: 20, world: world())
    let effects = machine.handle(.significantChange(ArrivalHarness.home, accuracy: 65), in: world())
    guard case .applyPlan(let plan, let add, let remove, _, _)? = effects.first else {
      Issue.record("a first position plans first: \(effects)")
      throw CancellationError()
    }
    #expect(remove.isEmpty)
    #expect(add.map(\.id) == plan.regions.map(\.id))
    let arrival = try #require(plan.regions.first { $0.kind == .arrival })
    return (machine, Set(add.map(\.id)), arrival)
  }

  @Test func aFirstPositionPlansAndStopsSignificantChangesAfterThePlan() throws {
    _ = try engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 1000)), radius: 100)])
    var machine = ArrivalMachine(config: ArrivalConfig(), capacity: 20, world: world())
    let launched = machine.handle(.launch(budget: nil), in: world())
    #expect(launched.contains(.location(.startSignificantChanges)))
    let effects = machine.handle(.significantChange(ArrivalHarness.home, accuracy: 65), in: world())
    let planAt = effects.firstIndex { if case .applyPlan = $0 { true } else { false } }
    let stopAt = effects.firstIndex(of: .location(.stopSignificantChanges))
    #expect(planAt != nil && stopAt != nil && planAt! < stopAt!, "\(effects)")
    #expect(machine.currentPlan.regions.contains { $0.kind == .arrival })
  }

  /// Each crossing the OS delivers to a suspended app is a wake: the plan
  /// asks only for those the machine acts on. With arrivals confirmed by a
  /// fix, neither an arrival region's exit nor an approach zone's is used;
  /// the edge's exit replans and its entry ends a spent edge.
  @Test(arguments: [(true, true), (false, true), (true, false)])
  func thePlanAsksTheOSOnlyForTheCrossingsItUses(confirm: Bool, quiet: Bool) throws {
    for i in 0..<16 {
      _ = try engine.tasks.add(
        title: "Errand \(i)", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 400 + Double(i) * 300)), radius: 100)])
    }
    var config = ArrivalConfig()
    config.session.confirmArrivals = confirm
    config.coverage.quietExits = quiet
    var machine = ArrivalMachine(config: config, capacity: 20, world: world())
    let effects = machine.handle(.significantChange(ArrivalHarness.home, accuracy: 65), in: world())
    guard case .applyPlan(_, let add, _, _, _)? = effects.first else {
      Issue.record("no plan: \(effects)")
      return
    }
    let kinds = Set(add.map(\.kind))
    #expect(kinds == [.arrival, .approach, .edge], "\(kinds)")
    for region in add {
      #expect(region.notifyOnEntry, "\(region.id)")
      switch region.kind {
      case .arrival: #expect(region.notifyOnExit == (!confirm || !quiet), "\(region.id)")
      case .approach: #expect(region.notifyOnExit == !quiet, "\(region.id)")
      case .edge: #expect(region.notifyOnExit, "\(region.id)")
      }
    }
  }

  @Test func anArrivalEntrySavesTheBudgetBeforeItAsksTheConfirmingFix() throws {
    var (machine, installed, arrival) = try planned()
    clock.advance(by: 600)
    let effects = machine.handle(.region(RegionEvent(id: arrival.id, kind: .entered, at: clock.now())), in: world(monitored: installed))
    guard case .saveBudget(let budget)? = effects.first else {
      Issue.record("the charge is saved first: \(effects)")
      return
    }
    #expect(budget == machine.currentBudget)
    #expect(Array(effects.dropFirst()) == [.location(.singleFix), .report(.confirmationRequested(arrival.id))])
  }

  @Test func aConfirmingFixInsideFiresOnceThroughANotifyEffect() throws {
    var (machine, installed, arrival) = try planned()
    clock.advance(by: 600)
    _ = machine.handle(.region(RegionEvent(id: arrival.id, kind: .entered, at: clock.now())), in: world(monitored: installed))
    clock.advance(by: 5)
    let effects = machine.handle(.preciseFix(ArrivalHarness.point(north: 990), accuracy: 10), in: world(monitored: installed))
    let reminders = effects.compactMap { effect -> ArrivalEffect.Reminder? in
      if case .notify(let reminder) = effect { return reminder }
      return nil
    }
    #expect(reminders.map(\.task.title) == ["Buy milk"])
    #expect(reminders.first?.visit == 1)
    #expect(reminders.first?.at == clock.now())
    clock.advance(by: 5)
    let again = machine.handle(.preciseFix(ArrivalHarness.point(north: 995), accuracy: 10), in: world(monitored: installed))
    #expect(!again.contains { if case .notify = $0 { true } else { false } }, "once per visit")
  }

  @Test func changedTasksAreAnInputThatTheNextPlanFollows() throws {
    var (machine, installed, arrival) = try planned()
    _ = try engine.tasks.done("Buy milk")
    let effects = machine.handle(.tasksChanged, in: world(monitored: installed))
    guard case .applyPlan(let plan, _, let remove, _, let reason)? = effects.first else {
      Issue.record("tasks changed replans: \(effects)")
      return
    }
    #expect(reason == "tasks changed")
    #expect(remove.contains(arrival.id))
    #expect(!plan.regions.contains { $0.kind == .arrival })
  }

  @Test func regionsOfOtherFeaturesAreLeftAloneAndTheirCapacityIsNotUsed() throws {
    _ = try engine.tasks.add(title: "Buy milk", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: 1000)), radius: 100)])
    var machine = ArrivalMachine(config: ArrivalConfig(), capacity: 3, world: world())
    let foreign: Set<String> = ["home-alarm", "work"]
    let effects = machine.handle(.significantChange(ArrivalHarness.home, accuracy: 65), in: world(monitored: foreign))
    guard case .applyPlan(_, let add, let remove, _, _)? = effects.first else {
      Issue.record("\(effects)")
      return
    }
    #expect(remove.isEmpty)
    #expect(add.count <= 1, "3 regions, 2 of them another feature's")
  }

  @Test func aWakeUpFixThatNeverComesDoesNotSilenceLaterEdgeExits() throws {
    // More places than a plan holds: the plan has an edge.
    for index in 1...20 {
      _ = try engine.tasks.add(
        title: "Errand \(index)", locations: [LocationSpec(target: .coordinate(ArrivalHarness.point(north: -Double(index) * 400)), radius: 100)])
    }
    var (machine, installed, _) = try planned()
    let edge = try #require(machine.currentPlan.regions.first { $0.kind == .edge })
    func exit() -> [ArrivalEffect] {
      machine.handle(.region(RegionEvent(id: edge.id, kind: .exited, at: clock.now())), in: world(monitored: installed))
    }
    clock.advance(by: 600)
    #expect(exit().contains(.location(.singleFix)))
    clock.advance(by: 5)
    #expect(exit().isEmpty, "one wake-up fix at a time")
    clock.advance(by: SessionConfig().noFixTimeout)
    _ = machine.handle(.tick, in: world(monitored: installed))
    #expect(exit().contains(.location(.singleFix)), "the fix that never came is given up on")
  }

  @Test func aBudgetThatCannotBeSavedStartsNoTracking() throws {
    let failing = BudgetRefusingStore(store)
    let h = ArrivalHarness(store: failing, clock: clock)
    let milk = try h.task("Buy milk", north: 1000)
    _ = h.arrivals.significantChange(ArrivalHarness.home, accuracy: 65)
    let region = try #require(h.region(of: milk))
    clock.advance(by: 600)
    failing.refuse.withLock { $0 = true }
    let events = h.arrivals.regionEvent(RegionEvent(id: region.id, kind: .entered, at: clock.now()))
    #expect(events.contains { if case .degraded(let text) = $0 { text.contains("tracking budget") } else { false } }, "\(events)")
    #expect(h.precise.singleFixes.withLock { $0 } == 0, "no fix without a durable charge")
  }
}

/// A store that refuses to save the tracking budget while `refuse` is set (a full disk).
final class BudgetRefusingStore: OperationStore {
  private let base: any OperationStore
  let refuse = Locked(false)

  init(_ base: any OperationStore) { self.base = base }

  var replica: ReplicaID { base.replica }

  @discardableResult
  func append(_ operations: [StoreOperation]) throws -> [OperationRecord] {
    if refuse.withLock({ $0 }) { throw StoreError.io(path: "log", operation: "write", reason: "disk full") }
    return try base.append(operations)
  }

  @discardableResult
  func merge(_ records: [OperationRecord]) throws -> [OperationRecord] { try base.merge(records) }
  func state() -> StoreState { base.state() }
  func operations(since: HLCTimestamp?) throws -> [OperationRecord] { try base.operations(since: since) }
  func describe() -> StoreDescription { base.describe() }
  func close() { base.close() }
}
