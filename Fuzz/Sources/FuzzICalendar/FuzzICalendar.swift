import Domain
import Exchange
import Foundation
import FuzzBounds

/// iCalendar from CalDAV clients and Apple Reminders: to-dos or an error,
/// never a crash. What imports must also export and import back the same:
/// every to-do WhileHere would keep (a valid title, a place) is made a task
/// as `import ics` makes it, written as `export ics` writes it, and read again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICalendar(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  fuzz_bounds_begin()
  defer { fuzz_bounds_end("FuzzICalendar", count) }
  guard let todos = try? ICalendar.decode(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)) else { return 0 }
  let radii = RadiusPolicy.standard
  var kept: [(task: ReminderTask, locations: [ICalendar.Location])] = []
  for (index, todo) in todos.enumerated() where !todo.locations.isEmpty {
    let locations = todo.locations.map { location in
      let radius = min(max(location.radius ?? radii.defaultRadius, radii.minimum), radii.maximum)
      return ICalendar.Location(coordinate: location.coordinate, radius: radius, title: location.title)
    }
    let created = Date(timeIntervalSince1970: 1_780_000_000)
    guard var task = try? ReminderTask(id: TaskID("t\(index)"), title: todo.title, notes: todo.notes, locations: [], createdAt: created) else { continue }
    if todo.completed != nil { try? task.complete(at: created) }
    kept.append((task, locations))
  }
  let exported = ICalendar.encode(kept, now: Date(timeIntervalSince1970: 1_780_000_000))
  let again: [ICalendar.Todo]
  do { again = try ICalendar.decode(exported) } catch { fatalError("an export does not import: \(error)\n\(exported)") }
  precondition(again.count == kept.count, "\(kept.count) tasks exported, \(again.count) imported:\n\(exported)")
  for (todo, (task, locations)) in zip(again, kept) {
    precondition(todo.title == task.title, "title \(task.title.debugDescription) came back as \(todo.title.debugDescription)")
    precondition(todo.notes == task.notes, "notes \(task.notes.debugDescription) came back as \(todo.notes.debugDescription)")
    var done = false
    if case .completed = task.state { done = true }
    precondition((todo.completed != nil) == done, "completion lost")
    precondition(todo.locations.map(\.coordinate) == locations.map(\.coordinate), "coordinates changed:\n\(exported)")
    precondition(todo.locations.map(\.radius) == locations.map { $0.radius.map { $0.rounded() } }, "radii changed:\n\(exported)")
    precondition(todo.locations.map { $0.title == nil } == locations.map { $0.title == nil }, "a place's title was lost:\n\(exported)")
  }
  return 0
}
