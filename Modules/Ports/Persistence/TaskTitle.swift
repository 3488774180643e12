import Domain

/// A task as a title typed on a command line is resolved against
/// (`PartialReading.taskTitles()`): its id, its title, and whether it is
/// completed (open tasks are preferred among equal titles).
public struct TaskTitle: Hashable, Sendable {
  public let id: TaskID
  public let title: String
  public let completed: Bool

  public init(id: TaskID, title: String, completed: Bool) {
    self.id = id
    self.title = title
    self.completed = completed
  }
}
