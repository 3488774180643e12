import Foundation

/// A task tied to places ("Buy milk" at three supermarkets). Named so it does
/// not shadow Swift's concurrency `Task`.
public struct ReminderTask: Hashable, Codable, Sendable {
  public let id: TaskID
  public var title: String
  public var notes: String
  public var keywords: [String]
  public var state: TaskState
  public var locations: [TaskLocation]
  public let createdAt: Date
  /// The task makes sense only while the place is open ("buy milk"): a
  /// place whose opening hours say it is closed does not fire it. Places
  /// without hours, or with hours in a form not understood, count as open.
  public var onlyWhileOpen: Bool

  public init(
    id: TaskID, title: String, notes: String = "", keywords: [String] = [],
    state: TaskState = .active, locations: [TaskLocation], createdAt: Date, onlyWhileOpen: Bool = false
  ) throws(DomainError) {
    self.id = id
    self.title = try Self.validTitle(title)
    self.notes = try CleanText.note(notes)
    self.keywords = keywords
    self.state = state
    self.locations = locations
    self.createdAt = createdAt
    self.onlyWhileOpen = onlyWhileOpen
  }

  enum CodingKeys: String, CodingKey {
    case id, title, notes, keywords, state, locations, createdAt, onlyWhileOpen
  }

  // Written before `onlyWhileOpen` existed, a task has none: it fires any time.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    id = try c.decode(TaskID.self, forKey: .id)
    title = try c.decode(String.self, forKey: .title)
    notes = try c.decode(String.self, forKey: .notes)
    keywords = try c.decode([String].self, forKey: .keywords)
    state = try c.decode(TaskState.self, forKey: .state)
    locations = try c.decode([TaskLocation].self, forKey: .locations)
    createdAt = try c.decode(Date.self, forKey: .createdAt)
    onlyWhileOpen = try c.decodeIfPresent(Bool.self, forKey: .onlyWhileOpen) ?? false
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(title, forKey: .title)
    try c.encode(notes, forKey: .notes)
    try c.encode(keywords, forKey: .keywords)
    try c.encode(state, forKey: .state)
    try c.encode(locations, forKey: .locations)
    try c.encode(createdAt, forKey: .createdAt)
    // Left out when off, so what older versions read is unchanged.
    if onlyWhileOpen { try c.encode(true, forKey: .onlyWhileOpen) }
  }

  public static func validTitle(_ title: String) throws(DomainError) -> String {
    let cleaned = try CleanText.name(title, field: "title")
    guard !cleaned.isEmpty else { throw .emptyTitle }
    return cleaned
  }

  /// The locations that can fire at `now`, in priority order. This is the
  /// completion cascade: one state change silences every place of the task.
  public func countingLocations(at now: Date) -> [TaskLocation] {
    guard state.isLive(at: now) else { return [] }
    return locations.filter(\.enabled)
  }

  public func location(_ id: LocationID) -> TaskLocation? {
    locations.first { $0.id == id }
  }
}
