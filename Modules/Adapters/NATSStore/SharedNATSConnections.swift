import Foundation
import Locking

/// The connections every log of a process opens on the same servers
/// shares: a person's log is one subject, and a TCP connection per person
/// (each with libnats's reader and flusher threads) made a worker's cost
/// per fix grow with the number of people (Docs/Benchmarks.md). A few
/// connections, each used by one call at a time, handed out in turn; the
/// last log to close closes them.
final class SharedNATSConnections: Sendable {
  static let process = SharedNATSConnections()

  /// Connections per set of servers: enough that one log's round trip
  /// (the journal's group commit) does not hold up the others'.
  static let perServers = 4

  private struct Entry {
    let pool: NATSConnectionPool<NATSConnection>
    var users: Int
  }
  private let entries = Locked<[String: Entry]>([:])

  /// The pool for `servers`, made on first use; give it back with `release`.
  func take(servers: String, timeoutMilliseconds: Int64) throws -> NATSConnectionPool<NATSConnection> {
    let key = Self.key(servers, timeoutMilliseconds)
    return try entries.withLock { entries in
      if var entry = entries[key] {
        entry.users += 1
        entries[key] = entry
        return entry.pool
      }
      let pool = try NATSConnectionPool(count: Self.perServers) { try NATSConnection(servers: servers, timeoutMilliseconds: timeoutMilliseconds) }
      entries[key] = Entry(pool: pool, users: 1)
      return pool
    }
  }

  /// One user fewer; the last one closes the connections.
  func release(servers: String, timeoutMilliseconds: Int64) {
    let key = Self.key(servers, timeoutMilliseconds)
    let closing = entries.withLock { entries -> NATSConnectionPool<NATSConnection>? in
      guard var entry = entries[key] else { return nil }
      entry.users -= 1
      guard entry.users <= 0 else {
        entries[key] = entry
        return nil
      }
      entries[key] = nil
      return entry.pool
    }
    closing?.each { $0.close() }
  }

  private static func key(_ servers: String, _ timeout: Int64) -> String { "\(timeout) \(servers)" }
}
