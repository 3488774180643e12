/// The use cases, wired over one context. Front ends (CLI, daemon,
/// simulator) call these and never touch a store directly.
public struct Engine: Sendable {
  public let context: EngineContext
  public let tasks: TaskService
  public let places: PlaceService
  public let check: CheckService
  public var undo: UndoJournal { UndoJournal(context: context) }

  public init(context: EngineContext) {
    self.context = context
    self.tasks = TaskService(context: context)
    self.places = PlaceService(context: context)
    self.check = CheckService(context: context)
  }
}
