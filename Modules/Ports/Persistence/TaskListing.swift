import Domain
import Foundation

/// A task as a listing shows it (`PartialReading.taskListings()`), with
/// what the listing needs of each location's place: a store keeps these
/// ready so `task list` reads one row a task instead of each task's
/// record and every place it names. Notes and keywords are not in it.
public struct TaskListing: Equatable, Sendable {
  public struct Location: Equatable, Sendable {
    public let id: LocationID
    /// The place it is tied to (nil: tied to a coordinate).
    public let place: PlaceID?
    /// That place's name (nil: the place is not held).
    public let placeName: String?
    /// Its circle's centre now (nil while its place is gone or has none).
    public let center: Coordinate?
    public let radius: Double
    public let enabled: Bool
    /// The place's opening hours as the provider gave them (OpenStreetMap's form).
    public let hours: String?

    public init(id: LocationID, place: PlaceID?, placeName: String?, center: Coordinate?, radius: Double, enabled: Bool, hours: String?) {
      (self.id, self.place, self.placeName, self.center) = (id, place, placeName, center)
      (self.radius, self.enabled, self.hours) = (radius, enabled, hours)
    }
  }

  public let id: TaskID
  public let title: String
  public let state: TaskState
  public let createdAt: Date
  public let onlyWhileOpen: Bool
  public let locations: [Location]

  public init(id: TaskID, title: String, state: TaskState, createdAt: Date, onlyWhileOpen: Bool, locations: [Location]) {
    (self.id, self.title, self.state, self.createdAt) = (id, title, state, createdAt)
    (self.onlyWhileOpen, self.locations) = (onlyWhileOpen, locations)
  }
}
