import Domain
import Engine
import Analytics
import Foundation
import Persistence

/// A person's recent history, for the API and the map page: the engine's
/// plans, sessions and reminders, and the answers given. Reminders and
/// answers are kept in the store so they outlive a restart.
extension Person {
  /// One line of the person's recent history, for the API.
  struct RecordedEvent: Codable, Equatable {
    let at: Date
    let kind: String
    let detail: String
    /// The task a reminder was about, so the page can answer it.
    var task: String? = nil
  }

  /// A Mark Done, Remind Later or Reopen from the API (the map page),
  /// kept in the history beside the reminders so each shows its answer.
  func noteAnswer(_ action: String, task: TaskID) {
    recordLine(kind: "answer", detail: "\(action) via \(Channel.api.rawValue)", at: engine.context.clock.now(), task: task.rawValue)
  }

  var history: [RecordedEvent] { recent.withLock { $0 } }

  func record(_ events: [ArrivalEvent]) {
    guard !events.isEmpty else { return }
    observer?(events)
    // Most fixes change nothing worth a line or a count: the clock and the
    // consent are read only when something is, since reading them fetches
    // this person's state from memory at every fix.
    let lines = events.compactMap(Self.line)
    let usages = events.compactMap(\.analytics)
    guard !lines.isEmpty || !usages.isEmpty else { return }
    if !usages.isEmpty, analyticsAllowed { usages.forEach(analytics.record) }
    let now = engine.context.clock.now()
    for line in lines {
      if line.kind == "degraded" { warn(line.detail) }
      recordLine(kind: line.kind, detail: line.detail, at: now, task: line.task)
    }
  }

  /// The line the history keeps for `event`, if any.
  private static func line(for event: ArrivalEvent) -> (kind: String, detail: String, task: String?)? {
    switch event {
    case .planned(let plan, let added, let removed, let reason):
      ("plan", "\(plan.regions.count) regions (+\(added.count) −\(removed.count)): \(reason)", nil)
    case .reminder(.delivered(let notification)): ("reminder", "\(notification.title) — \(notification.body)", notification.task.rawValue)
    case .reminder(.suppressed(let notification, let reason)): ("suppressed", "\(notification.title): \(reason)", nil)
    case .reminder(.failed(let notification, let error)): ("failed", "\(notification.title): \(error)", nil)
    case .sessionStarted(let zone, _, _): ("session", "started for \(zone)", nil)
    case .sessionStopped(let reason, _): ("session", "stopped: \(reason)", nil)
    case .degraded(let reason): ("degraded", reason, nil)
    default: nil
    }
  }

  func recordLine(kind: String, detail: String, at: Date, task: String? = nil) {
    recent.withLock { recent in
      recent.append(RecordedEvent(at: at, kind: kind, detail: detail, task: task))
      if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
      // Reminders and their answers outlive a restart (the page lists them);
      // plans and sessions are the engine's chatter and do not. Written
      // under the lock so a newer list never lands before an older one.
      guard Self.keptKinds.contains(kind) else { return }
      let kept = Array(recent.filter { Self.keptKinds.contains($0.kind) }.suffix(Self.keptReminders))
      if let data = try? JSONEncoder().encode(kept) {
        _ = try? store.append([.put(.setting(key: Self.historyKey, value: String(decoding: data, as: UTF8.self)))])
      }
    }
  }

  /// Puts back the reminders and answers kept before a restart.
  func restoreHistory() {
    guard let text = store.state().settings[Self.historyKey],
      let kept = try? JSONDecoder().decodeOutside([RecordedEvent].self, from: Data(text.utf8))
    else { return }
    recent.withLock { $0 = kept + $0 }
  }

  static let historyKey = "history.reminders"
  static let keptKinds: Set<String> = ["reminder", "suppressed", "failed", "answer"]
  static let keptReminders = 100

  static let recentLimit = 200
}
