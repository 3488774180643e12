import Composition
import Domain
import Engine
import Foundation
import Simulation
import Testing

@Suite struct HelsinkiWalkTests {
  func run(_ scenario: Scenario) throws -> [TimelineEvent] {
    let runtime = try Runtime.boot(LaunchOptions(program: .testing, overrides: ["clock": "manual:2026-06-01T00:00:00Z"], environment: [:]))
    defer { runtime.shutdown() }
    var events: [TimelineEvent] = []
    try ScenarioRunner(scenario: scenario, engine: runtime.engine, clock: runtime.clock as! ManualClock).run { events.append($0) }
    return events
  }

  func reminders(_ events: [TimelineEvent]) -> [String] {
    events.compactMap { if case .reminder(let arrival) = $0 { return arrival.task.title } else { return nil } }
  }

  @Test func theEmbeddedWalkFiresEachTaskOnceAndHonoursAnswers() throws {
    let events = try run(HelsinkiWalk.scenario)
    // Milk fires at Kaisaniemi and is marked done, so Kasarmitori (also a
    // milk place, visited later) stays silent: the completion cascade.
    #expect(reminders(events) == ["Buy milk", "Post the parcel", "Pick up prescription", "Return the gloves"])
    guard case .finished(_, let tasks)? = events.last else {
      Issue.record("no finish event")
      return
    }
    let states = Dictionary(uniqueKeysWithValues: tasks.map { ($0.title, $0.state) })
    #expect(states == ["Buy milk": "completed", "Post the parcel": "snoozed", "Pick up prescription": "active", "Return the gloves": "completed"])
  }

  @Test func stayingInsideDoesNotFireAgain() throws {
    var scenario = HelsinkiWalk.scenario
    scenario.answers = [:]
    let events = try run(scenario)
    // Unanswered, milk fires at Kaisaniemi and again on the separate visit to Kasarmitori, never during a stay.
    #expect(reminders(events).filter { $0 == "Buy milk" }.count == 2)
    #expect(reminders(events).filter { $0 == "Return the gloves" }.count == 1)
  }

  @Test func aBadScenarioNamesTheField() {
    let json = HelsinkiWalk.json.replacingOccurrences(of: #""speed": 1.4,"#, with: "")
    let error = #expect(throws: ScenarioError.self) { try Scenario.decode(Data(json.utf8), source: "x.json") }
    #expect(error?.description.contains("walk.speed") == true)
  }

  @Test func aScriptedPlaceThatDoesNotExistIsRefused() throws {
    var scenario = HelsinkiWalk.scenario
    scenario.tasks[0].at = ["Nowhere"]
    scenario.tasks[0].radius = [100]
    #expect(throws: DomainError.self) { try run(scenario) }
  }
}
