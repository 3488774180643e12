import Domain
import Engine
import Foundation

/// Plays a scenario against an engine whose clock it moves by hand: saves the
/// places, creates the tasks, walks, fires reminders on arrival and answers
/// them as scripted.
public struct ScenarioRunner {
  let scenario: Scenario
  let engine: Engine
  let clock: ManualClock

  public init(scenario: Scenario, engine: Engine, clock: ManualClock) {
    self.scenario = scenario
    self.engine = engine
    self.clock = clock
  }

  public func run(_ emit: (TimelineEvent) -> Void) throws {
    let path = try WalkPath(scenario.walk)
    clock.set(scenario.start)
    try setUp()
    emit(.started(name: scenario.name, places: scenario.places.count, tasks: scenario.tasks.count, fixes: path.samples.count))
    let arrivals = FixArrivalService(context: engine.context)
    var pausedAt: String?
    for sample in path.samples {
      clock.set(scenario.start.addingTimeInterval(sample.elapsed))
      if let label = sample.pausedAt, label != pausedAt {
        let pause = scenario.walk.waypoints.first { $0.label == label }?.pause ?? 0
        emit(.paused(label: label, seconds: pause, at: clock.now()))
      }
      pausedAt = sample.pausedAt
      for arrival in arrivals.observe(sample.position) {
        emit(.reminder(arrival))
        if let answer = try answer(arrival.task) { emit(.answered(task: arrival.task.title, answer: answer, at: clock.now())) }
      }
    }
    let now = clock.now()
    emit(.finished(at: now, tasks: engine.tasks.list().map { ($0.title, $0.state.effective(at: now).name) }))
  }

  private func setUp() throws {
    for entry in scenario.places {
      _ = try engine.places.add(
        name: entry.name, coordinate: try Coordinate(latitude: entry.lat, longitude: entry.lon),
        address: entry.address, tags: entry.tags ?? [])
    }
    for entry in scenario.tasks {
      let radii = entry.radius ?? []
      guard radii.count <= 1 || radii.count == entry.at.count else {
        throw ScenarioError(source: "task '\(entry.title)'", message: "give one radius, or one per place (\(entry.at.count))")
      }
      let specs = try entry.at.enumerated().map { index, text -> LocationSpec in
        let numeric = text.allSatisfy { "0123456789+-., ".contains($0) }
        let target: LocationSpec.Target = numeric ? .coordinate(try Coordinate(parsing: text)) : .place(text)
        return LocationSpec(target: target, radius: radii.isEmpty ? nil : radii[radii.count == 1 ? 0 : index])
      }
      _ = try engine.tasks.add(title: entry.title, locations: specs, keywords: entry.keywords ?? [])
    }
  }

  /// Applies the scripted answer; returns how it was answered, or nil when ignored.
  private func answer(_ task: ReminderTask) throws -> String? {
    let script = (scenario.answers?[task.title] ?? "ignore").split(separator: " ").map(String.init)
    switch script.first {
    case "done":
      _ = try engine.tasks.done(task.id.rawValue)
      return "Mark Done"
    case "later":
      let seconds = try DurationText.parse(script.count > 1 ? script[1] : "1h")
      _ = try engine.tasks.later(task.id.rawValue, for: seconds)
      return "Remind Later (\(DurationText.format(seconds)))"
    case "ignore", nil:
      return nil
    default:
      throw ScenarioError(source: "answers", message: "'\(script.joined(separator: " "))' for '\(task.title)' is not done, later DURATION or ignore")
    }
  }
}
