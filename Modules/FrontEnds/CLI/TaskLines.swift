import Domain
import Foundation

/// The lines a task prints as, shared by what a command shows of one task
/// (`TaskSummary`) and what `task list` prints of many (`TaskListingView`).
/// Written as UTF-8 into one buffer: `task list` of 10,000 tasks made a
/// string for each of 30,000 lines and for each piece of each line, a
/// third of its time.
enum TaskLines {
  /// "Title  id  state", the state coloured and a snooze's end given.
  static func heading(title: some LineText, id: some LineText, state: String, snoozedUntil: Date?, style: Style, into out: inout [UInt8]) {
    // Stored text may predate cleaning or come from another replica: never let it reach the terminal raw.
    style.wrapping(.bold, into: &out) { title.appendEscaped(to: &$0) }
    out.append(text: "  ")
    style.append(id, .dim, to: &out)
    out.append(text: "  ")
    var status = state
    if let snoozedUntil { status += " until \(Formatting.time(snoozedUntil, in: style.timeZone))" }
    style.append(status, state == "active" ? .green : state == "completed" ? .dim : .yellow, to: &out)
  }

  /// One location: "N. Place (lat,lon)  r=R m" and what holds of it now;
  /// `hours` and `id` are given only for a detailed view.
  static func location<Text: LineText>(
    number: Int, placeID: Text?, placeName: Text?, center: (Double, Double)?, radius: Double, enabled: Bool, open: Bool?,
    onlyWhileOpen: Bool, hours: String?, id: String?, style: Style, into out: inout [UInt8]
  ) {
    out.append(text: "  ")
    Formatting.appendInteger(number, to: &out)
    out.append(text: ". ")
    if let placeID {
      (placeName ?? placeID).appendEscaped(to: &out)
      out.append(text: " (")
    }
    if let center { Formatting.appendCoordinate(center.0, center.1, to: &out) } else { out.append(text: "(place deleted)") }
    if placeID != nil { out.append(UInt8(ascii: ")")) }
    out.append(text: "  r=")
    Formatting.appendMeters(radius, to: &out)
    if !enabled {
      out.append(text: "  ")
      style.append("[disabled]", .yellow, to: &out)
    }
    if let open {
      out.append(text: "  ")
      if open { style.append("open now", .green, to: &out) } else if onlyWhileOpen {
        style.append("closed now: waits", .yellow, to: &out)
      } else {
        style.append("closed now", .dim, to: &out)
      }
      if let hours {
        out.append(text: "  ")
        style.append("(\(CleanText.escaped(hours)))", .dim, to: &out)
      }
    }
    if let id {
      out.append(text: "  ")
      style.append("[\(id)]", .dim, to: &out)
    }
  }

  /// A line `write` writes into a buffer, as a string.
  static func line(_ write: (inout [UInt8]) -> Void) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(96)
    write(&bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
