import Domain
import Engine
import Foundation
import Geofencing
import Notifications

/// Plays a scenario through the arrival engine on a simulated phone, with a
/// clock it moves by hand: saves the places, creates the tasks, walks
/// (positions each second), shows plans, sessions and reminders with their
/// buttons, and answers reminders as scripted.
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
    emit(.started(name: scenario.name, places: scenario.places.count, tasks: scenario.tasks.count, seconds: path.samples.count))
    // The benchmark is where the harsher days are measured (`bench detection`).
    let world = WorldConfig.calmPhone
    let phone = SimulatedPhone(world: world, duration: path.samples.count, random: SimRandom(seed: 1))
    let driver = PhoneDriver(
      world: world, phone: phone, context: engine.context, clock: clock, config: ArrivalConfig(), sink: RecordingNotificationSink())
    var pausedAt: String?
    for (second, sample) in path.samples.enumerated() {
      let now = scenario.start.addingTimeInterval(sample.elapsed)
      if let label = sample.pausedAt, label != pausedAt {
        emit(.paused(label: label, seconds: scenario.walk.waypoints.first { $0.label == label }?.pause ?? 0, at: now))
      }
      pausedAt = sample.pausedAt
      var pending = driver.step(second: second, position: sample.position, at: now)
      while !pending.isEmpty {
        let observation = pending.removeFirst()
        guard case .engine(let event) = observation else { continue }
        switch event {
        case .planned(let plan, let added, let removed, let reason) where !added.isEmpty || !removed.isEmpty:
          emit(.plan(at: now, watching: names(plan.destinations), regions: plan.regions.count, reason: reason))
        case .sessionStarted(_, let granted, _):
          emit(.session(at: now, text: "precise location on to confirm an arrival (up to \(Int(granted)) s)"))
        case .sessionStopped(let reason, let used):
          emit(.session(at: now, text: "precise location off after \(Int(used)) s: \(reason.rawValue)"))
        case .reminder(.delivered(let notification)):
          emit(.reminder(at: now, task: notification.title, body: notification.body, buttons: notification.category.buttons.map(\.title)))
          if let answer = try answer(notification.task) {
            emit(.answered(task: notification.title, answer: answer, at: now))
            pending += driver.engine.tasksChanged().map(PhoneObservation.engine)
          }
        default: break
        }
      }
    }
    let end = clock.now()
    emit(.finished(at: end, tasks: engine.tasks.list().map { .init(title: $0.title, state: $0.state.effective(at: end).name) }))
  }

  /// "Task — place" for each watched destination.
  func names(_ destinations: [Destination]) -> [String] {
    let state = engine.context.store.state()
    return destinations.map { destination in
      let task = state.tasks[destination.task]
      var place = "place \(destination.priority)"
      if case .place(let id)? = task?.location(destination.location)?.target, let name = state.places[id]?.name { place = name }
      return "\(task?.title ?? destination.task.rawValue) — \(place)"
    }
  }

  private func setUp() throws { try scenario.seed(into: engine) }

  /// Applies the scripted answer; returns how it was answered, or nil when ignored.
  private func answer(_ id: TaskID) throws -> String? {
    guard let task = engine.context.store.state().tasks[id] else { return nil }
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
