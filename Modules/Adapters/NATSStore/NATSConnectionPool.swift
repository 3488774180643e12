import Foundation
import Locking

/// A few values (connections and what stands on them), each used by one
/// caller at a time, handed out in turn: a call that waits for a
/// JetStream round trip holds one of them, not every caller's.
final class NATSConnectionPool<Value>: Sendable {
  private let members: [Locked<Value>]
  private let next = Locked(0)

  init(count: Int, make: () throws -> Value) throws {
    members = try (0..<max(1, count)).map { _ in Locked(try make()) }
  }

  /// Whether every member satisfies `test` (waiting for whoever holds it).
  func all(_ test: (Value) -> Bool) -> Bool {
    members.allSatisfy { member in member.withLock { test($0) } }
  }

  /// Each member in turn, waiting for whoever holds it (closing them all).
  func each(_ body: (inout Value) -> Void) {
    for member in members { member.withLock(body) }
  }

  func withOne<Result>(_ body: (inout Value) throws -> Result) throws -> Result {
    let turn = next.withLock { next in
      defer { next = (next + 1) % members.count }
      return next
    }
    return try members[turn].withLock(body)
  }
}
