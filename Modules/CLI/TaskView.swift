import Domain
import Engine
import Foundation
import Persistence

/// A task as `--json` prints it; Docs/Formats.md documents the fields.
struct TaskView: Encodable {
  struct LocationView: Encodable {
    let number: Int
    let id: String
    let lat: Double?
    let lon: Double?
    let place: PlaceRef?
    let radius: Double
    let enabled: Bool
    /// Whether this location can fire now (task live and location enabled).
    let counting: Bool
    let region: String?
  }

  struct PlaceRef: Encodable {
    let id: String
    let name: String?
  }

  let id: String
  let title: String
  let notes: String
  let keywords: [String]
  let state: String
  let snoozedUntil: Date?
  let completedAt: Date?
  let createdAt: Date
  let locations: [LocationView]

  init(_ task: ReminderTask, state store: StoreState, now: Date) {
    id = task.id.rawValue
    title = task.title
    notes = task.notes
    keywords = task.keywords
    let effective = task.state.effective(at: now)
    state = effective.name
    if case .snoozed(let until) = effective { snoozedUntil = until } else { snoozedUntil = nil }
    if case .completed(let at) = effective { completedAt = at } else { completedAt = nil }
    createdAt = task.createdAt
    let counting = Set(task.countingLocations(at: now).map(\.id))
    locations = task.locations.enumerated().map { index, location in
      let center = store.coordinate(of: location)
      var place: PlaceRef?
      if case .place(let placeID) = location.target {
        place = PlaceRef(id: placeID.rawValue, name: store.places[placeID]?.name)
      }
      return LocationView(
        number: index + 1, id: location.id.rawValue, lat: center?.latitude, lon: center?.longitude, place: place,
        radius: location.radius, enabled: location.enabled, counting: counting.contains(location.id),
        region: center.map { RegionID(task: task.id, location: location.id, center: $0, radius: location.radius).description })
    }
  }

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
