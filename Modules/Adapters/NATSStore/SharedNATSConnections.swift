import Foundation
import Locking

/// The connections every log of a process opens on the same servers
/// shares: a person's log is one subject, and a TCP connection per person
/// (each with libnats's reader and flusher threads) made a worker's cost
/// per fix grow with the number of people (Docs/Benchmarks.md). A few
/// connections, each used by one call at a time, handed out in turn; the
/// last log to give a pool back closes it. A log opened while the current
/// pool is not connected (its server went away) gets a fresh pool, so a
/// pool left to a server that is gone is not handed out again.
final class SharedNATSConnections: Sendable {
  static let process = SharedNATSConnections()

  /// Connections per set of servers: enough that one log's round trip
  /// (the journal's group commit) does not hold up the others'.
  static let perServers = 4

  typealias Pool = NATSConnectionPool<NATSConnection>
  private struct State {
    /// The pool new logs on these servers get.
    var current: [String: Pool] = [:]
    /// Logs using each pool.
    var users: [ObjectIdentifier: Int] = [:]
  }
  private let state = Locked(State())

  /// A pool for `servers`; give it back with `release`.
  func take(servers: String, timeoutMilliseconds: Int64) throws -> Pool {
    let key = "\(timeoutMilliseconds) \(servers)"
    return try state.withLock { state in
      if let pool = state.current[key], pool.all({ $0.isConnected }) {
        state.users[ObjectIdentifier(pool), default: 0] += 1
        return pool
      }
      let pool = try Pool(count: Self.perServers) { try NATSConnection(servers: servers, timeoutMilliseconds: timeoutMilliseconds) }
      state.current[key] = pool
      state.users[ObjectIdentifier(pool)] = 1
      return pool
    }
  }

  /// One user fewer; the last one closes the pool's connections.
  func release(_ pool: Pool) {
    let id = ObjectIdentifier(pool)
    let closing = state.withLock { state -> Bool in
      let left = (state.users[id] ?? 1) - 1
      guard left <= 0 else {
        state.users[id] = left
        return false
      }
      state.users[id] = nil
      for (key, current) in state.current where current === pool { state.current[key] = nil }
      return true
    }
    if closing { pool.each { $0.close() } }
  }
}
