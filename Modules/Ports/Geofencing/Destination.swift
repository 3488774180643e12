import Domain

/// A place the person may arrive at: one counting location of a live task,
/// at its current centre and radius.
public struct Destination: Hashable, Sendable {
  public let task: TaskID
  public let location: LocationID
  public let center: Coordinate
  public let radius: Double
  /// 1-based position of the location in its task (1 = preferred).
  public let priority: Int

  public init(task: TaskID, location: LocationID, center: Coordinate, radius: Double, priority: Int) {
    self.task = task
    self.location = location
    self.center = center
    self.radius = radius
    self.priority = priority
  }

  /// The deterministic id of this destination's arrival region.
  public var regionID: RegionID { RegionID(task: task, location: location, center: center, radius: radius) }
}
