import Domain
import Foundation
import Locking
import Persistence

/// Raw positions kept no longer than `server.fix-retention` (a day by
/// default). Every acknowledged fix is journalled as `fix.NAME` in the
/// daemon's store, and a log keeps each old value until a compaction; so a
/// sweep deletes the journalled fix of anyone whose last fix is older than
/// the retention (or who is no longer configured), and compacts the journal
/// once fix bytes older than the retention may still be in a file.
final class FixRetention: Sendable {
  let journal: any OperationStore
  let retention: TimeInterval
  let clock: @Sendable () -> Date
  /// When the oldest fix that may still be in a file was written (nil: none).
  private let oldestOnDisk: Locked<Date?>
  private let ticks = Locked(0)

  init(journal: any OperationStore, retention: TimeInterval, clock: @escaping @Sendable () -> Date) {
    self.journal = journal
    self.retention = retention
    self.clock = clock
    // What an earlier run left is of unknown age: the first sweep compacts it away.
    let anyFix = journal.state().settings.keys.contains { $0.hasPrefix(Self.prefix) }
    oldestOnDisk = Locked(anyFix ? .distantPast : nil)
  }

  static let prefix = "fix."

  /// Counts the daemon's 5-s ticks: true on every `interval`-th.
  func tickIsSweep(every interval: Int) -> Bool {
    ticks.withLock { count in
      count += 1
      return count % interval == 0
    }
  }

  /// A fix was just journalled.
  func wrote() {
    let now = clock()
    oldestOnDisk.withLock { oldest in
      if oldest == nil { oldest = now }
    }
  }

  /// Deletes expired fixes and compacts when old bytes may remain; returns
  /// whether it compacted. `people` are the names still configured.
  @discardableResult
  func sweep(people: Set<String>) throws -> Bool {
    let now = clock()
    let settings = journal.state().settings
    var expired: [StoreOperation] = []
    var kept: [Date] = []
    for (key, value) in settings where key.hasPrefix(Self.prefix) {
      let name = String(key.dropFirst(Self.prefix.count))
      let at = (try? JSONDecoder().decodeOutside(Person.SavedFix.self, from: Data(value.utf8))).map { Date(timeIntervalSince1970: $0.at) }
      if !people.contains(name) || at.map({ now.timeIntervalSince($0) > retention }) ?? true {
        expired.append(.delete(.setting(key)))
      } else if let at {
        kept.append(at)
      }
    }
    if !expired.isEmpty { try journal.append(expired) }
    let due = oldestOnDisk.withLock { oldest in oldest.map { now.timeIntervalSince($0) > retention } ?? false } || !expired.isEmpty
    guard due, let compacting = journal as? any CompactingStore else { return false }
    try compacting.compact()
    // What stays on disk now: the fixes kept, each written no earlier than its own time.
    oldestOnDisk.withLock { $0 = kept.min() }
    return true
  }
}
