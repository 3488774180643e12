import Foundation
import Engine
import Persistence

/// In a cluster, which of a person's queued reports are already applied:
/// each report's queue sequence is journalled with it (a location's in its
/// fix, any other's under `lastQueuedKey`), so a report applied again, by
/// this worker or by the next owner, is known and let be, and an older one
/// is never journalled over a later one.
extension Person {
  /// In a cluster: the queue sequence of the last report other than a
  /// location applied for this person (a location's is in its fix).
  var lastQueuedKey: String { "queued.\(name)" }
  var queueKeys: (fix: String, other: String) { (lastFixKey, lastQueuedKey) }

  /// In a cluster: the queue sequence of the last report applied for this
  /// person, by this worker or by the one before (the journal's last fix
  /// and last other report are read at start and at takeover, `refresh`).
  var lastQueued: UInt64? {
    let location = devicesSeen.withLock { $0.values.compactMap(\.queued).max() }
    let other = otherQueued.withLock { $0 }
    return [location, other].compactMap { $0 }.max()
  }

  /// Takes in the sequence of the last report journalled for this person,
  /// by whichever worker (at start, at takeover, and when a report of
  /// theirs turns out older than that).
  func restoreLastQueued() {
    guard let sequence = Self.lastQueued(in: journal.state(), keys: queueKeys) else { return }
    otherQueued.withLock { $0 = max($0 ?? 0, sequence) }
  }

  /// Journals `operations` for a report, then runs `written`; in a cluster
  /// (`queued`) only if no later report of this person's is journalled.
  /// When one is, what it says is taken in (so the report comes again as
  /// a duplicate), `superseded` hears of it and the reply is empty.
  func journalQueued(
    _ operations: [StoreOperation], queued: UInt64?, superseded: @escaping @Sendable () -> Void,
    then done: @escaping @Sendable (Result<PhoneService.Reply, any Error>) -> Void, written: @escaping @Sendable () -> Void
  ) {
    guard let queued else {
      return journal.append(operations) { result in
        if case .failure(let error) = result { return done(.failure(error)) }
        written()
      }
    }
    let keys = queueKeys
    journal.append(operations, unless: { Self.lastQueued(in: $0, keys: keys).map { $0 >= queued } ?? false }) { [self] result in
      switch result {
      case .failure(let error): done(.failure(error))
      case .success(.some): written()
      case .success(.none):
        restoreLastQueued()
        superseded()
        done(.success(PhoneService.Reply()))
      }
    }
  }

  /// The queue sequence of the last report journalled for a person, by
  /// whichever worker: its last fix's or its last other report's.
  static func lastQueued(in state: StoreState, keys: (fix: String, other: String)) -> UInt64? {
    let fix = state.settings[keys.fix].flatMap(SavedFix.queued(inJournalText:))
    let other = state.settings[keys.other].flatMap { UInt64($0) }
    return [fix, other].compactMap { $0 }.max()
  }
}
