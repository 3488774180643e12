import Composition
import Domain
import Engine
import Foundation
import Simulation
import Testing

@Suite struct HelsinkiWalkTests {
  func run(_ scenario: Scenario) throws -> [TimelineEvent] {
    let runtime = try Runtime.boot(
      LaunchOptions(program: .testing, overrides: ["clock": "manual:2026-06-01T00:00:00Z"], environment: ["TZ": "UTC"]))
    defer { runtime.shutdown() }
    var events: [TimelineEvent] = []
    try ScenarioRunner(scenario: scenario, engine: runtime.engine, clock: runtime.clock as! ManualClock).run { events.append($0) }
    return events
  }

  func reminders(_ events: [TimelineEvent]) -> [String] {
    events.compactMap { if case .reminder(_, let task, _, _) = $0 { return task } else { return nil } }
  }

  @Test func theEmbeddedWalkShowsPlansRemindersWithButtonsAndTheCompletionCascade() throws {
    let events = try run(HelsinkiWalk.scenario)
    let fired = reminders(events)
    // Milk fires at Kaisaniemi and is marked done, so Kasarmitori (also a
    // milk place, visited later) stays silent: the completion cascade.
    #expect(fired.filter { $0 == "Buy milk" }.count == 1)
    #expect(fired.contains("Post the parcel") && fired.contains("Return the gloves"))
    #expect(events.contains { if case .reminder(_, _, _, let buttons) = $0 { return buttons == ["Mark Done", "Remind Later"] } else { return false } })
    let plans = events.compactMap { if case .plan(_, let watching, let regions, _) = $0 { return (watching, regions) } else { return nil } }
    #expect(!plans.isEmpty && plans.allSatisfy { $0.1 <= 20 && $0.0.count <= 7 })
    // After Mark Done, the next plan no longer watches any milk place.
    let doneIndex = try #require(events.firstIndex { if case .answered("Buy milk", "Mark Done", _) = $0 { return true } else { return false } })
    let nextPlan = events[doneIndex...].compactMap { if case .plan(_, let watching, _, _) = $0 { return watching } else { return nil } }.first
    #expect(nextPlan?.allSatisfy { !$0.hasPrefix("Buy milk") } == true)
    guard case .finished(_, let tasks)? = events.last else {
      Issue.record("no finish event")
      return
    }
    let states = Dictionary(uniqueKeysWithValues: tasks.map { ($0.title, $0.state) })
    #expect(states["Buy milk"] == "completed" && states["Post the parcel"] == "snoozed" && states["Return the gloves"] == "completed")
  }

  @Test func stayingInsideDoesNotFireAgain() throws {
    var scenario = HelsinkiWalk.scenario
    scenario.answers = [:]
    let fired = reminders(try run(scenario))
    // Unanswered, each task fires at most once per visit to one of its places.
    #expect(fired.filter { $0 == "Return the gloves" }.count == 1)
    #expect(fired.filter { $0 == "Buy milk" }.count <= 2)
  }

  /// The walk starts at 09:00 UTC on a Monday: a post office that opens at
  /// 12:00 does not remind of the parcel on the way; one open from 08:00 does.
  @Test func aTaskOnlyWhileOpenWaitsForItsPlaceToOpen() throws {
    func fired(hours: String) throws -> [String] {
      var scenario = HelsinkiWalk.scenario
      let post = try #require(scenario.places.firstIndex { $0.name == "Pääposti" })
      scenario.places[post].hours = hours
      let parcel = try #require(scenario.tasks.firstIndex { $0.title == "Post the parcel" })
      scenario.tasks[parcel].onlyWhileOpen = true
      return reminders(try run(scenario))
    }
    #expect(try fired(hours: "Mo-Fr 12:00-18:00").contains("Post the parcel") == false)
    #expect(try fired(hours: "Mo-Fr 08:00-18:00").contains("Post the parcel"))
  }

  @Test func aBadScenarioNamesTheField() {
    let json = HelsinkiWalk.json.replacingOccurrences(of: #""speed": 1.4,"#, with: "")
    let error = #expect(throws: ScenarioError.self) { try Scenario.decode(Data(json.utf8), source: "x.json") }
    #expect(error?.description.contains("walk.speed") == true)
  }

  @Test func aMisspeltKeyIsNamedNotIgnored() {
    let json = HelsinkiWalk.json.replacingOccurrences(of: #""speed": 1.4,"#, with: #""speed": 1.4, "sped": 2,"#)
    let error = #expect(throws: ScenarioError.self) { try Scenario.decode(Data(json.utf8), source: "x.json") }
    #expect(error?.description.contains("unknown key 'walk.sped'") == true, "\(String(describing: error))")
    #expect(throws: Never.self) { try Scenario.decode(Data(HelsinkiWalk.json.utf8), source: "embedded") }
  }

  @Test func aScriptedPlaceThatDoesNotExistIsRefused() throws {
    var scenario = HelsinkiWalk.scenario
    scenario.tasks[0].at = ["Nowhere"]
    scenario.tasks[0].radius = [100]
    #expect(throws: DomainError.self) { try run(scenario) }
  }
}
