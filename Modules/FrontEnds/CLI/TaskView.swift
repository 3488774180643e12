import Domain
import Engine
import Foundation
import Persistence

/// How a task summary prints as text.
typealias TaskView = TaskSummary

extension TaskSummary {
  func lines(_ style: Style, detailed: Bool) -> [String] {
    var lines = [TaskLines.line { TaskLines.heading(title: title, id: id, state: state, snoozedUntil: snoozedUntil, style: style, into: &$0) }]
    if detailed {
      if !notes.isEmpty {
        lines.append("  notes: " + notes.split(separator: "\n", omittingEmptySubsequences: false).map { CleanText.escaped(String($0)) }.joined(separator: "\n         "))
      }
      if !keywords.isEmpty { lines.append("  keywords: \(CleanText.escaped(keywords.joined(separator: ", ")))") }
      if onlyWhileOpen { lines.append("  only while open: places without known hours count as open") }
    }
    for location in locations {
      lines.append(
        TaskLines.line {
          TaskLines.location(
            number: location.number, placeID: location.place?.id, placeName: location.place?.name,
            center: location.lat.flatMap { lat in location.lon.map { (lat, $0) } }, radius: location.radius, enabled: location.enabled,
            open: location.open, onlyWhileOpen: onlyWhileOpen, hours: detailed ? location.hours : nil, id: detailed ? location.id : nil,
            style: style, into: &$0)
        })
    }
    return lines
  }
}
