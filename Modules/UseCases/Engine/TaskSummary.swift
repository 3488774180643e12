import Domain
import Foundation
import Persistence

/// A task as people and programs read it (`whilehere --json`, the daemon's
/// API): its state as a word, each place with its position and name.
/// Docs/Formats.md documents the fields.
public struct TaskSummary: Encodable, Sendable {
  public struct LocationView: Encodable, Sendable {
    public let number: Int
    public let id: String
    public let lat: Double?
    public let lon: Double?
    public let place: PlaceRef?
    public let radius: Double
    public let enabled: Bool
    /// Whether this location can fire now (task live and location enabled;
    /// for a task only for open hours, its place not closed).
    public let counting: Bool
    /// The OS region it is watched as: made when asked (the JSON), since a
    /// text listing never shows it and it was 5 % of `task list`.
    public var region: String? { center.map { RegionID(task: task, location: LocationID(id), center: $0, radius: radius).description } }
    /// The place's opening hours (OpenStreetMap's form), when known…
    public let hours: String?
    /// …and whether they say it is open now (nil: not known or not understood).
    public let open: Bool?
    let task: TaskID
    let center: Coordinate?

    enum CodingKeys: String, CodingKey { case number, id, lat, lon, place, radius, enabled, counting, region, hours, open }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(number, forKey: .number)
      try container.encode(id, forKey: .id)
      try container.encodeIfPresent(lat, forKey: .lat)
      try container.encodeIfPresent(lon, forKey: .lon)
      try container.encodeIfPresent(place, forKey: .place)
      try container.encode(radius, forKey: .radius)
      try container.encode(enabled, forKey: .enabled)
      try container.encode(counting, forKey: .counting)
      try container.encodeIfPresent(region, forKey: .region)
      try container.encodeIfPresent(hours, forKey: .hours)
      try container.encodeIfPresent(open, forKey: .open)
    }
  }

  public struct PlaceRef: Encodable, Sendable {
    public let id: String
    public let name: String?
  }

  public let id: String
  public let title: String
  public let notes: String
  public let keywords: [String]
  public let state: String
  public let snoozedUntil: Date?
  public let completedAt: Date?
  public let createdAt: Date
  public let locations: [LocationView]
  /// Reminders only while the place is open.
  public let onlyWhileOpen: Bool

  public init(_ task: ReminderTask, state store: StoreState, now: Date, timeZone: TimeZone = .current) {
    id = task.id.rawValue
    title = task.title
    notes = task.notes
    keywords = task.keywords
    let effective = task.state.effective(at: now)
    state = effective.name
    if case .snoozed(let until) = effective { snoozedUntil = until } else { snoozedUntil = nil }
    if case .completed(let at) = effective { completedAt = at } else { completedAt = nil }
    createdAt = task.createdAt
    onlyWhileOpen = task.onlyWhileOpen
    let counting = Set(store.firingLocations(of: task, at: now, in: timeZone).map(\.id))
    locations = task.locations.enumerated().map { index, location in
      let center = store.coordinate(of: location)
      var place: PlaceRef?
      var hours: String?
      if case .place(let placeID) = location.target {
        place = PlaceRef(id: placeID.rawValue, name: store.places[placeID]?.name)
        hours = store.places[placeID]?.provider?.hours
      }
      return LocationView(
        number: index + 1, id: location.id.rawValue, lat: center?.latitude, lon: center?.longitude, place: place,
        radius: location.radius, enabled: location.enabled, counting: counting.contains(location.id),
        hours: hours, open: store.hours(of: location)?.isOpen(at: now, in: timeZone), task: task.id, center: center)
    }
  }
}
