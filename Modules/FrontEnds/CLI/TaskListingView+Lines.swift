import Domain
import Foundation
import Persistence

extension TaskListingView {
  /// Writes what `task list` prints of this task at `now` (the lines a
  /// task's summary prints without its details, each ending in a newline),
  /// its text copied from where the listing holds it.
  func write(_ style: Style, now: Date, into out: inout [UInt8]) throws {
    let effective = state.effective(at: now)
    var snoozedUntil: Date?
    if case .snoozed(let until) = effective { snoozedUntil = until }
    TaskLines.heading(title: title, id: id, state: effective.name, snoozedUntil: snoozedUntil, style: style, into: &out)
    out.append(UInt8(ascii: "\n"))
    var number = 0
    try forEachLocation { location in
      number += 1
      let open = location.place == nil ? nil : location.hours.flatMap { OpeningHours(String(decoding: $0, as: UTF8.self)) }?.isOpen(at: now, in: style.timeZone)
      TaskLines.location(
        number: number, placeID: location.place, placeName: location.placeName, center: location.center.map { ($0.latitude, $0.longitude) },
        radius: location.radius, enabled: location.enabled, open: open, onlyWhileOpen: onlyWhileOpen, hours: nil, id: nil, style: style,
        into: &out)
      out.append(UInt8(ascii: "\n"))
    }
  }
}
