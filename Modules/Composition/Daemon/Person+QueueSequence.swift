import Foundation
import Locking
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

  /// A queued report being applied by a cluster's worker: its sequence,
  /// whether the worker still holds its partition (asked when its journal
  /// write is made), and who hears that a later report was journalled first.
  struct QueuedStep: Sendable {
    let sequence: UInt64
    let held: @Sendable () -> Bool
    let superseded: @Sendable () -> Void

    init(sequence: UInt64, held: @escaping @Sendable () -> Bool = { true }, superseded: @escaping @Sendable () -> Void = {}) {
      self.sequence = sequence
      self.held = held
      self.superseded = superseded
    }
  }

  /// The partition's lease ran out while a report's journal write waited:
  /// nothing was written, and the partition's next owner applies it.
  struct LeaseEnded: Error, CustomStringConvertible {
    let sequence: UInt64
    var description: String { "the partition's lease ran out before report \(sequence) was journalled; its next owner applies it" }
  }

  /// Journals `operations` for a report, then runs `written`; in a cluster
  /// (`step`) only while the worker holds the partition, when the write is
  /// made (so its stamp comes before any the next owner makes: the stamps,
  /// not the journal's expected-last-sequence check, which nats-server 2.9
  /// does not hold under concurrent writers, decide which fix stays), and
  /// only if no later report of this person's is journalled. When one is,
  /// what it says is taken in (so the report comes again as a duplicate),
  /// `superseded` hears of it and the reply is empty; when the lease ran
  /// out, the answer is `LeaseEnded`.
  func journalQueued(
    _ operations: [StoreOperation], step: QueuedStep?,
    then done: @escaping @Sendable (Result<PhoneService.Reply, any Error>) -> Void, written: @escaping @Sendable () -> Void
  ) {
    guard let step else {
      return journal.append(operations) { result in
        if case .failure(let error) = result { return done(.failure(error)) }
        written()
      }
    }
    let keys = queueKeys
    // Why the last look at the journal wrote nothing (asked again after each lost race).
    let leaseEnded = Locked(false)
    let unless: @Sendable (StoreState) -> Bool = { state in
      let ended = !step.held()
      leaseEnded.withLock { $0 = ended }
      return ended || Self.lastQueued(in: state, keys: keys).map { $0 >= step.sequence } ?? false
    }
    journal.append(operations, unless: unless) { [self] result in
      switch result {
      case .failure(let error): done(.failure(error))
      case .success(.some): written()
      case .success(.none) where leaseEnded.withLock({ $0 }): done(.failure(LeaseEnded(sequence: step.sequence)))
      case .success(.none):
        restoreLastQueued()
        step.superseded()
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
