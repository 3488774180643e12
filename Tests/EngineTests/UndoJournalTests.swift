import Domain
import Engine
import Testing
import TestSupport

/// Undo takes the newest change, also when several happen in the same
/// millisecond (a manual clock, or answers pressed in quick succession):
/// found when the map page's test undid a delete and got the Mark Done back.
@Suite struct UndoJournalTests {
  @Test func changesInTheSameMillisecondAreUndoneNewestFirst() throws {
    for _ in 0..<20 {
      let harness = EngineHarness()
      let engine = harness.engine
      let task = try engine.tasks.add(title: "Buy milk", locations: [EngineHarness.at(60.17, 24.94)])
      _ = try engine.tasks.done(task.id.rawValue)
      _ = try engine.tasks.delete(task.id.rawValue)
      #expect(engine.undo.entries().map(\.label).first?.hasPrefix("deleted") == true, "\(engine.undo.entries().map(\.label))")
      _ = try engine.undo.undo()
      #expect(engine.context.store.state().tasks[task.id]?.state == .completed(at: Fixtures.epoch), "the delete is undone first")
      _ = try engine.undo.undo()
      #expect(engine.context.store.state().tasks[task.id]?.state == .active)
    }
  }
}
