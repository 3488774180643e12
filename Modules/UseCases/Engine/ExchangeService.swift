import Domain
import Exchange
import Foundation
import Persistence

/// Open formats out and in: GeoJSON for places and lists, iCalendar for
/// tasks with their places (and back).
public struct ExchangeService: Sendable {
  let context: EngineContext

  public init(context: EngineContext) {
    self.context = context
  }

  public func geoJSON() -> GeoJSONExport.Result {
    let state = context.store.state()
    return GeoJSONExport.encode(places: Array(state.places.values), lists: Array(state.lists.values), memberships: state.memberships)
  }

  /// Every task with at least one place it can fire at, oldest first.
  public func iCalendar() -> (text: String, tasks: Int) {
    let state = context.store.state()
    let tasks = state.tasks.values.sorted { ($0.createdAt, $0.id.rawValue) < ($1.createdAt, $1.id.rawValue) }.compactMap { task -> (ReminderTask, [ICalendar.Location])? in
      let locations = task.locations.filter(\.enabled).compactMap { location -> ICalendar.Location? in
        guard let coordinate = state.coordinate(of: location) else { return nil }
        var title: String?
        if case .place(let id) = location.target { title = state.places[id]?.name }
        return ICalendar.Location(coordinate: coordinate, radius: location.radius, title: title)
      }
      return locations.isEmpty ? nil : (task, locations)
    }
    return (ICalendar.encode(tasks.map { (task: $0.0, locations: $0.1) }, now: context.clock.now()), tasks.count)
  }

  /// Which task an imported to-do became, so importing it again is a no-op
  /// (a setting that travels with sync, so other replicas agree).
  static func uidKey(_ uid: String) -> String { "import.ics." + String(uid.prefix(200)) }

  public struct ImportReport: Encodable, Sendable, Equatable {
    public var created: [String] = []
    /// Title (or uid) → why it was not imported.
    public var skipped: [String: String] = [:]
    /// Radii moved into the allowed range, by title.
    public var adjusted: [String] = []
  }

  /// Creates a task for every to-do with a place. The whole file is read
  /// and checked first, then written as one batch: a bad file changes nothing.
  public func importICalendar(_ text: String) throws -> ImportReport {
    let todos = try ICalendar.decode(text)
    let state = context.store.state()
    let now = context.clock.now()
    var report = ImportReport()
    var operations: [StoreOperation] = []
    for todo in todos {
      let label = todo.title.isEmpty ? todo.uid : todo.title
      if todo.uid.hasSuffix("@whilehere"), state.tasks[TaskID(String(todo.uid.dropLast("@whilehere".count)))] != nil {
        report.skipped[label] = "already here"
        continue
      }
      // Another client's to-do imported before: the same file again adds nothing.
      let uidKey = Self.uidKey(todo.uid)
      if !todo.uid.isEmpty, let earlier = state.settings[uidKey], state.tasks[TaskID(earlier)] != nil {
        report.skipped[label] = "imported before"
        continue
      }
      guard !todo.locations.isEmpty else {
        report.skipped[label] = "no place (no X-APPLE-STRUCTURED-LOCATION alarm and no GEO)"
        continue
      }
      var adjusted = false
      let locations = todo.locations.enumerated().map { index, location -> TaskLocation in
        let wanted = location.radius ?? context.radii.defaultRadius
        let radius = min(max(wanted, context.radii.minimum), context.radii.maximum)
        if radius != wanted { adjusted = true }
        return TaskLocation(id: LocationID("l\(index + 1)"), target: .coordinate(location.coordinate), radius: radius)
      }
      do {
        var task = try ReminderTask(id: TaskID(context.ids.next()), title: todo.title, notes: todo.notes, locations: locations, createdAt: now)
        if let completed = todo.completed { try task.complete(at: completed.timeIntervalSince1970 > 0 ? completed : now) }
        operations.append(.put(.task(task)))
        if !todo.uid.isEmpty { operations.append(.put(.setting(key: uidKey, value: task.id.rawValue))) }
        report.created.append(task.title)
        if adjusted { report.adjusted.append(task.title) }
      } catch {
        report.skipped[label] = "\(error)"
      }
    }
    try context.store.append(operations)
    return report
  }
}
