import Domain
import Engine
import Foundation
import Persistence

/// How a task summary prints as text.
typealias TaskView = TaskSummary

extension TaskSummary {
  func lines(_ style: Style, detailed: Bool) -> [String] {
    var status = state
    if let snoozedUntil { status += " until \(Formatting.time(snoozedUntil))" }
    let stateText = state == "active" ? style.green(status) : state == "completed" ? style.dim(status) : style.yellow(status)
    var lines = ["\(style.bold(title))  \(style.dim(id))  \(stateText)"]
    if detailed {
      if !notes.isEmpty { lines.append("  notes: \(notes)") }
      if !keywords.isEmpty { lines.append("  keywords: \(keywords.joined(separator: ", "))") }
    }
    for location in locations {
      var where_ = location.lat.map { Formatting.coordinate($0, location.lon!) } ?? "(place deleted)"
      if let place = location.place { where_ = "\(place.name ?? place.id) (\(where_))" }
      var line = "  \(location.number). \(where_)  r=\(Formatting.meters(location.radius))"
      if !location.enabled { line += "  " + style.yellow("[disabled]") }
      if detailed { line += "  " + style.dim("[\(location.id)]") }
      lines.append(line)
    }
    return lines
  }
}
