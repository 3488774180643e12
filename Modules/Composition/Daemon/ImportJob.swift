import Engine
import Foundation
import Importing
import Locking

/// One person's import from the map page: it runs on its own thread so
/// the page can watch its progress and cancel it; one at a time. What it
/// finished is kept when cancelled (ImportService settles rows in chunks).
final class ImportJob: Sendable {
  enum Phase: String, Encodable, Sendable {
    case none, running, finished, cancelled, failed
  }

  struct Status: Encodable, Sendable {
    var state: Phase = .none
    var file: String?
    var done = 0
    var total = 0
    var list: String?
    var matched: Int?
    var needsReview: Int?
    var unresolved: Int?
    var skipped: Int?
    var error: String?
  }

  private let status = Locked(Status())
  private let cancelling = Locked(false)
  /// Entered while an import runs (tests wait on it instead of on time).
  private let running = DispatchGroup()

  var current: Status { status.withLock { $0 } }

  /// Starts importing `data` (named `file`, which says its format); false
  /// when an import is already running.
  func start(_ data: Data, file: String, listName: String?, imports: ImportService, finished: @escaping @Sendable () -> Void) -> Bool {
    let started = status.withLock { status -> Bool in
      guard status.state != .running else { return false }
      status = Status(state: .running, file: file)
      return true
    }
    guard started else { return false }
    cancelling.withLock { $0 = false }
    running.enter()
    let thread = Thread { [self] in
      defer { running.leave() }
      var control = ImportService.Control()
      control.progress = { done, total in self.status.withLock { $0.done = done; $0.total = total } }
      control.cancelled = { self.cancelling.withLock { $0 } }
      do {
        let list = try TakeoutList.parse(data, file: file)
        status.withLock { $0.total = list.rows.count; $0.skipped = list.skipped.count }
        let summary = try imports.importList(list, file: file, listName: listName, control: control)
        status.withLock { status in
          status.state = .finished
          status.done = summary.rows
          status.list = summary.list.name
          status.matched = summary.matched
          status.needsReview = summary.needsReview
          status.unresolved = summary.unresolved
        }
      } catch let interrupted as ImportService.Interrupted {
        status.withLock { $0.state = .cancelled; $0.done = interrupted.done; $0.error = interrupted.description }
      } catch {
        status.withLock { $0.state = .failed; $0.error = "\(error)" }
      }
      finished()
    }
    thread.name = "whilehere.import"
    thread.start()
    return true
  }

  /// Waits until no import runs (or `timeout` passes); whether it finished.
  func waitUntilIdle(timeout: TimeInterval = 60) -> Bool { running.wait(timeout: .now() + timeout) == .success }

  /// Asks a running import to stop after its current chunk.
  func cancel() -> Bool {
    guard current.state == .running else { return false }
    cancelling.withLock { $0 = true }
    return true
  }
}
