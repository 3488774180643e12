/// One place a task is tied to, with its own trigger radius. Priority is the
/// position in the task's `locations` array.
public struct TaskLocation: Hashable, Codable, Sendable {
  public let id: LocationID
  public var target: LocationTarget
  public var radius: Double
  public var enabled: Bool

  public init(id: LocationID, target: LocationTarget, radius: Double, enabled: Bool = true) {
    self.id = id
    self.target = target
    self.radius = radius
    self.enabled = enabled
  }
}
