import Foundation
import Locking

/// Messages a worker leaves for a person's phone, collected by whichever
/// front answers that phone next: an OwnTracks app over HTTP hears from
/// the server only in answers to its own posts, and the front that gets
/// the post is not always the worker that ran the person's engine.
/// JetStream's key-value store in a cluster, memory in tests.
public protocol CommandMailbox: Sendable {
  /// Adds `messages` after any not yet collected. Throws only when the
  /// mailbox cannot be reached; nothing is then added.
  func leave(_ messages: [Data], for person: String) throws
  /// Every message left for `person` and not collected yet, oldest first;
  /// no later `collect` returns them again.
  func collect(for person: String) throws -> [Data]
}

/// Messages in memory, shared by the fronts and workers of one process.
public final class InMemoryCommandMailbox: CommandMailbox {
  private let boxes = Locked<[String: [Data]]>([:])

  public init() {}

  public func leave(_ messages: [Data], for person: String) throws {
    guard !messages.isEmpty else { return }
    boxes.withLock { $0[person, default: []] += messages }
  }

  public func collect(for person: String) throws -> [Data] {
    boxes.withLock { $0.removeValue(forKey: person) ?? [] }
  }
}
