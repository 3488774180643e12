import Domain
import Foundation

/// The lines a task prints as, shared by what a command shows of one task
/// (`TaskSummary`) and what `task list` prints of many (`TaskListing`).
/// Written as UTF-8 into one buffer: `task list` of 10,000 tasks made a
/// string for each of 30,000 lines and for each piece of each line, a
/// third of its time.
enum TaskLines {
  /// "Title  id  state", the state coloured and a snooze's end given.
  static func heading(title: String, id: String, state: String, snoozedUntil: Date?, style: Style, into out: inout [UInt8]) {
    var status = state
    if let snoozedUntil { status += " until \(Formatting.time(snoozedUntil, in: style.timeZone))" }
    let stateText = state == "active" ? style.green(status) : state == "completed" ? style.dim(status) : style.yellow(status)
    // Stored text may predate cleaning or come from another replica: never let it reach the terminal raw.
    out.append(contentsOf: style.bold(CleanText.escaped(title)).utf8)
    out.append(contentsOf: "  ".utf8)
    out.append(contentsOf: style.dim(id).utf8)
    out.append(contentsOf: "  ".utf8)
    out.append(contentsOf: stateText.utf8)
  }

  /// One location: "N. Place (lat,lon)  r=R m" and what holds of it now;
  /// `hours` and `id` are given only for a detailed view.
  static func location(
    number: Int, placeID: String?, placeName: String?, center: (Double, Double)?, radius: Double, enabled: Bool, open: Bool?,
    onlyWhileOpen: Bool, hours: String?, id: String?, style: Style, into out: inout [UInt8]
  ) {
    out.append(contentsOf: "  ".utf8)
    out.append(contentsOf: String(number).utf8)
    out.append(contentsOf: ". ".utf8)
    if let placeID {
      out.append(contentsOf: CleanText.escaped(placeName ?? placeID).utf8)
      out.append(contentsOf: " (".utf8)
    }
    if let center { Formatting.appendCoordinate(center.0, center.1, to: &out) } else { out.append(contentsOf: "(place deleted)".utf8) }
    if placeID != nil { out.append(UInt8(ascii: ")")) }
    out.append(contentsOf: "  r=".utf8)
    out.append(contentsOf: Formatting.meters(radius).utf8)
    if !enabled { out.append(contentsOf: ("  " + style.yellow("[disabled]")).utf8) }
    if let open {
      let now = open ? style.green("open now") : (onlyWhileOpen ? style.yellow("closed now: waits") : style.dim("closed now"))
      out.append(contentsOf: ("  " + now).utf8)
      if let hours { out.append(contentsOf: ("  " + style.dim("(\(CleanText.escaped(hours)))")).utf8) }
    }
    if let id { out.append(contentsOf: ("  " + style.dim("[\(id)]")).utf8) }
  }

  /// A line `write` writes into a buffer, as a string.
  static func line(_ write: (inout [UInt8]) -> Void) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(96)
    write(&bytes)
    return String(decoding: bytes, as: UTF8.self)
  }
}
