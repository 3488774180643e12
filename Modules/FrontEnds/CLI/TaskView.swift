import Domain
import Engine
import Foundation
import Persistence

/// How a task summary prints as text.
typealias TaskView = TaskSummary

extension TaskSummary {
  func lines(_ style: Style, detailed: Bool) -> [String] {
    var status = state
    if let snoozedUntil { status += " until \(Formatting.time(snoozedUntil, in: style.timeZone))" }
    let stateText = state == "active" ? style.green(status) : state == "completed" ? style.dim(status) : style.yellow(status)
    // Stored text may predate cleaning or come from another replica: never let it reach the terminal raw.
    var lines = ["\(style.bold(CleanText.escaped(title)))  \(style.dim(id))  \(stateText)"]
    if detailed {
      if !notes.isEmpty {
        lines.append("  notes: " + notes.split(separator: "\n", omittingEmptySubsequences: false).map { CleanText.escaped(String($0)) }.joined(separator: "\n         "))
      }
      if !keywords.isEmpty { lines.append("  keywords: \(CleanText.escaped(keywords.joined(separator: ", ")))") }
      if onlyWhileOpen { lines.append("  only while open: places without known hours count as open") }
    }
    for location in locations {
      var where_ = location.lat.map { Formatting.coordinate($0, location.lon!) } ?? "(place deleted)"
      if let place = location.place { where_ = "\(CleanText.escaped(place.name ?? place.id)) (\(where_))" }
      var line = "  \(location.number). \(where_)  r=\(Formatting.meters(location.radius))"
      if !location.enabled { line += "  " + style.yellow("[disabled]") }
      if let open = location.open {
        let now = open ? style.green("open now") : (onlyWhileOpen ? style.yellow("closed now: waits") : style.dim("closed now"))
        line += "  " + now
        if detailed, let hours = location.hours { line += "  " + style.dim("(\(CleanText.escaped(hours)))") }
      }
      if detailed { line += "  " + style.dim("[\(location.id)]") }
      lines.append(line)
    }
    return lines
  }
}
