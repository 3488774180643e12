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
    var object: [String: Any]
    switch event {
    case .started(let name, let places, let tasks, let seconds):
      object = ["event": "started", "scenario": name, "places": places, "tasks": tasks, "seconds": seconds]
    case .paused(let label, let seconds, let at):
      object = ["event": "paused", "at": iso(at), "label": label, "seconds": seconds]
    case .plan(let at, let watching, let regions, let reason):
      object = ["event": "plan", "at": iso(at), "watching": watching, "regions": regions, "reason": reason]
    case .session(let at, let text):
      object = ["event": "session", "at": iso(at), "text": text]
    case .reminder(let at, let task, let body, let buttons):
      object = ["event": "reminder", "at": iso(at), "task": task, "body": body, "actions": buttons]
    case .answered(let task, let answer, let at):
      object = ["event": "answered", "at": iso(at), "task": task, "answer": answer]
    case .finished(let at, let tasks):
      object = ["event": "finished", "at": iso(at), "tasks": tasks.map { ["title": $0.title, "state": $0.state] }]
    }
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }

  func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
