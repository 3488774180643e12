import Domain
import Foundation
import Simulation

/// Prints timeline events for a person (or as JSON lines for scripts).
struct TimelinePrinter {
  let json: Bool
  let scenario: Scenario

  func print(_ event: TimelineEvent) {
    if json { return Swift.print(jsonLine(event)) }
    switch event {
    case .started(let name, let places, let tasks, let seconds):
      Swift.print("\(name): \(places) places, \(tasks) tasks, \(DurationText.format(Double(seconds))) at \(scenario.walk.speed) m/s on a simulated phone")
      if let attribution = scenario.attribution { Swift.print(attribution) }
      Swift.print("")
      Swift.print("\(time(scenario.start))  start at \(scenario.walk.waypoints.first?.label ?? "the first waypoint")")
    case .paused(let label, let seconds, let at):
      Swift.print("\(time(at))  stays at \(label) for \(DurationText.format(seconds))")
    case .plan(let at, let watching, let regions, let reason):
      Swift.print("\(time(at))  plan (\(reason)): \(regions) regions watch \(watching.count) places")
      for name in watching { Swift.print("            · \(name)") }
    case .session(let at, let text):
      Swift.print("\(time(at))  \(text)")
    case .reminder(let at, let task, let body, let buttons):
      Swift.print("\(time(at))  REMINDER  \(task) — \(body)   " + buttons.map { "[\($0)]" }.joined(separator: "  "))
    case .answered(let task, let answer, _):
      Swift.print("          -> \(answer) for \"\(task)\"")
    case .finished(let at, let tasks):
      Swift.print("\(time(at))  end of walk")
      Swift.print("")
      Swift.print("Tasks now:")
      let width = tasks.map(\.title.count).max() ?? 0
      for task in tasks { Swift.print("  " + task.title + String(repeating: " ", count: width - task.title.count) + "  " + task.state) }
    }
  }

  func time(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.dateFormat = "HH:mm:ss"
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }

  func jsonLine(_ event: TimelineEvent) -> String {
    let object: [String: JSONValue]
    func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
    switch event {
    case .started(let name, let places, let tasks, let seconds):
      object = ["event": "started", "scenario": .string(name), "places": .number(Double(places)), "tasks": .number(Double(tasks)), "seconds": .number(Double(seconds))]
    case .paused(let label, let seconds, let at):
      object = ["event": "paused", "at": iso(at), "label": .string(label), "seconds": .number(seconds)]
    case .plan(let at, let watching, let regions, let reason):
      object = ["event": "plan", "at": iso(at), "watching": strings(watching), "regions": .number(Double(regions)), "reason": .string(reason)]
    case .session(let at, let text):
      object = ["event": "session", "at": iso(at), "text": .string(text)]
    case .reminder(let at, let task, let body, let buttons):
      object = ["event": "reminder", "at": iso(at), "task": .string(task), "body": .string(body), "actions": strings(buttons)]
    case .answered(let task, let answer, let at):
      object = ["event": "answered", "at": iso(at), "task": .string(task), "answer": .string(answer)]
    case .finished(let at, let tasks):
      object = ["event": "finished", "at": iso(at), "tasks": .array(tasks.map { .object(["title": .string($0.title), "state": .string($0.state)]) })]
    }
    return JSONValue.object(object).compactText
  }

  func iso(_ date: Date) -> JSONValue { .string(ISO8601DateFormatter().string(from: date)) }
}
