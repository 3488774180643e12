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

  public init(
    id: TaskID, title: String, notes: String = "", keywords: [String] = [],
    state: TaskState = .active, locations: [TaskLocation], createdAt: Date
  ) throws(DomainError) {
    self.id = id
    self.title = try Self.validTitle(title)
    self.notes = try CleanText.note(notes)
    self.keywords = keywords
    self.state = state
    self.locations = locations
    self.createdAt = createdAt
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
