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
    /// Tasks tied to places already saved here (title → the places' names):
    /// a place the file names, standing where the file puts it.
    public var savedPlaces: [String: [String]] = [:]
  }

  /// How far a saved place may stand from where the file puts a place of
  /// the same name and still be that place, metres: files round
  /// coordinates (six decimals are 0.1 m, four 11 m), and a namesake down
  /// the street (another branch) is further.
  static let samePlaceDistance = 15.0

  /// The saved place a file's location names: the nearest with the same
  /// name (folded: case, accents and spacing ignored) within
  /// `samePlaceDistance`. Another copy of WhileHere exports a place as its
  /// name and position; tied to the saved place, the task follows it when
  /// the place is corrected, as the task that was exported did.
  static func savedPlace(for location: ICalendar.Location, among named: [String: [Place]]) -> Place? {
    guard let title = location.title else { return nil }
    return named[SearchText.fold(title), default: []]
      .compactMap { place in place.coordinate.map { (place, $0.distance(to: location.coordinate)) } }
      .filter { $0.1 <= samePlaceDistance }
      .min { ($0.1, $0.0.id) < ($1.1, $1.0.id) }?.0
  }

  /// Creates a task for every to-do with a place. The whole file is read
  /// and checked first, then written as one batch: a bad file changes nothing.
  public func importICalendar(_ text: String) throws -> ImportReport {
    let todos = try ICalendar.decode(text)
    let state = context.store.state()
    let now = context.clock.now()
    var report = ImportReport()
    var operations: [StoreOperation] = []
    let titles = Set(todos.flatMap { $0.locations.compactMap(\.title) }.map(SearchText.fold))
    let named = Dictionary(grouping: titles.isEmpty ? [] : state.places.values.filter { titles.contains(SearchText.fold($0.name)) }) {
      SearchText.fold($0.name)
    }
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
      var saved: [String] = []
      let locations = todo.locations.enumerated().map { index, location -> TaskLocation in
        let wanted = location.radius ?? context.radii.defaultRadius
        let radius = min(max(wanted, context.radii.minimum), context.radii.maximum)
        if radius != wanted { adjusted = true }
        let place = Self.savedPlace(for: location, among: named)
        if let place { saved.append(place.name) }
        return TaskLocation(id: LocationID("l\(index + 1)"), target: place.map { .place($0.id) } ?? .coordinate(location.coordinate), radius: radius)
      }
      do {
        var task = try ReminderTask(id: TaskID(context.ids.next()), title: todo.title, notes: todo.notes, locations: locations, createdAt: now)
        if let completed = todo.completed { try task.complete(at: completed.timeIntervalSince1970 > 0 ? completed : now) }
        operations.append(.put(.task(task)))
        if !todo.uid.isEmpty { operations.append(.put(.setting(key: uidKey, value: task.id.rawValue))) }
        report.created.append(task.title)
        if adjusted { report.adjusted.append(task.title) }
        if !saved.isEmpty { report.savedPlaces[task.title] = saved }
      } catch {
        report.skipped[label] = "\(error)"
      }
    }
    try context.store.append(operations)
    return report
  }
}
