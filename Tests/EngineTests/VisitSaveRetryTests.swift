import Domain
import Engine
import Foundation
import Persistence
import Testing
import TestSupport

/// A reminder shown while its visit could not be saved (a store on a
/// network, away for a moment) is saved at the engine's next step, so a
/// restart or the worker taking the person over after it does not remind
/// the same visit again. Seen once in ClusterKillTests on CI: the live
/// engine remembered the visit, the restarted one did not.
@Suite struct VisitSaveRetryTests {
  static let visits = "arrival.visits"

  /// Refuses the visits' saves only, as the harness's engine makes them.
  static func refusingVisits(_ store: FaultyOperationStore) {
    store.refuse { operations in
      operations.contains { if case .put(.setting(let key, _)) = $0 { return key == Self.visits } else { return false } }
    }
  }

  static func degraded(_ events: [ArrivalEvent]) -> [String] {
    events.compactMap { if case .degraded(let reason) = $0 { return reason } else { return nil } }
  }

  /// A visit reminded while the store refused its save; then `between` runs
  /// (nothing, when nil) and a fresh engine on the same store restores the
  /// fix at the shop: the reminders it fires.
  func restartAfterAnUnsavedVisit(between: ((ArrivalHarness) -> Void)?) throws -> (
    first: [String], saved: String?, restored: [String], store: FaultyOperationStore
  ) {
    let store = FaultyOperationStore(InMemoryOperationStore(replica: Fixtures.replica("test"), clock: ManualClock(Fixtures.epoch)))
    let h = ArrivalHarness(store: store)
    try h.task("Buy milk", north: 1000)
    let shop = ArrivalHarness.point(north: 1000)
    _ = h.arrivals.reportedFix(ArrivalHarness.home, accuracy: 10)
    h.clock.advance(by: 600)
    Self.refusingVisits(store)
    let events = h.arrivals.reportedFix(shop, accuracy: 10)
    #expect(Self.degraded(events).contains { $0.contains("could not save the visits reminded") }, "\(events)")
    store.refuse(nil)
    h.clock.advance(by: 60)
    between?(h)
    let saved = store.state().settings[Self.visits]
    let restarted = ArrivalHarness(store: store, clock: h.clock)
    _ = try restarted.arrivals.launch()
    let restored = restarted.arrivals.reportedFix(shop, accuracy: 10, takenAt: h.clock.now(), restoring: true)
    return (h.reminders(events), saved, restarted.reminders(restored), store)
  }

  @Test func aVisitWhoseSaveFailedIsSavedAtTheNextStepAndNotRemindedAfterARestart() throws {
    let run = try restartAfterAnUnsavedVisit { h in
      let next = h.arrivals.reportedFix(ArrivalHarness.point(north: 1005), accuracy: 10)
      #expect(h.reminders(next).isEmpty, "the same visit")
    }
    #expect(run.first == ["Buy milk"])
    #expect(run.store.refused == 1)
    #expect(run.saved?.contains("visiting") == true, "\(run.saved ?? "nothing saved")")
    #expect(run.restored.isEmpty, "the visit reminded before the restart: \(run.restored)")
  }

  @Test func aVisitWhoseSaveFailedIsSavedAtShutdown() throws {
    let run = try restartAfterAnUnsavedVisit { h in _ = h.arrivals.shutdown() }
    #expect(run.saved?.contains("visiting") == true)
    #expect(run.restored.isEmpty, "\(run.restored)")
  }

  /// What the two tests above guard against: nothing saved, the restarted
  /// engine cannot know the visit was reminded.
  @Test func withoutALaterStepTheVisitIsRemindedAgain() throws {
    let run = try restartAfterAnUnsavedVisit(between: nil)
    #expect(run.saved == nil)
    #expect(run.restored == ["Buy milk"])
  }

  @Test func aSaveRefusedAgainIsSaidAgainAndTriedOnceMorePerStep() throws {
    let store = FaultyOperationStore(InMemoryOperationStore(replica: Fixtures.replica("test"), clock: ManualClock(Fixtures.epoch)))
    let h = ArrivalHarness(store: store)
    try h.task("Buy milk", north: 1000)
    _ = h.arrivals.reportedFix(ArrivalHarness.home, accuracy: 10)
    h.clock.advance(by: 600)
    Self.refusingVisits(store)
    _ = h.arrivals.reportedFix(ArrivalHarness.point(north: 1000), accuracy: 10)
    h.clock.advance(by: 30)
    let again = h.arrivals.tick()
    #expect(store.refused == 2)
    #expect(Self.degraded(again).count == 1, "\(again)")
    store.refuse(nil)
    let saved = h.arrivals.tick()
    #expect(Self.degraded(saved).isEmpty && store.state().settings[Self.visits] != nil)
    _ = h.arrivals.tick()
    #expect(store.refused == 2)
  }
}
