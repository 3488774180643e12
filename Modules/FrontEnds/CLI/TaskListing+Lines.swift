import Domain
import Foundation
import Persistence

extension TaskListing {
  /// Writes what `task list` prints of this task at `now` (the lines a
  /// task's summary prints without its details, each ending in a newline).
  func write(_ style: Style, now: Date, into out: inout [UInt8]) {
    let effective = state.effective(at: now)
    var snoozedUntil: Date?
    if case .snoozed(let until) = effective { snoozedUntil = until }
    TaskLines.heading(title: title, id: id.rawValue, state: effective.name, snoozedUntil: snoozedUntil, style: style, into: &out)
    out.append(UInt8(ascii: "\n"))
    for (index, location) in locations.enumerated() {
      TaskLines.location(
        number: index + 1, placeID: location.place?.rawValue, placeName: location.placeName,
        center: location.center.map { ($0.latitude, $0.longitude) }, radius: location.radius, enabled: location.enabled,
        open: location.place == nil ? nil : location.hours.flatMap(OpeningHours.init)?.isOpen(at: now, in: style.timeZone),
        onlyWhileOpen: onlyWhileOpen, hours: nil, id: nil, style: style, into: &out)
      out.append(UInt8(ascii: "\n"))
    }
  }
}
