import CMicroHTTPD
import Foundation
import Locking
import Synchronization

/// When each open connection must have sent what it owes: its request's
/// headers within `headerSeconds` of connecting (or of its last answer, on
/// a kept-alive connection), then its body at `minimumRate` bytes a second
/// at least. libmicrohttpd restarts its idle timer on every byte, so without
/// this a client trickling a byte every few seconds from many addresses
/// holds every connection; a connection past its deadline is shut down.
/// While the handler runs (it may wait for a durable write) nothing is due.
///
/// Each connection's deadline is one atomic in its own `Connection` (kept
/// in libmicrohttpd's socket context), so a request takes no shared lock;
/// the set of connections is locked only when one opens or closes, and by
/// the once-a-second sweep.
final class RequestDeadlines: Sendable {
  final class Connection: Sendable {
    let socket: Int32
    /// Milliseconds since 1970 when it is cut if it has not moved on; `never` while answering or once cut.
    let due: Atomic<Int64>
    static let never = Int64.max

    init(socket: Int32, due: Int64) {
      self.socket = socket
      self.due = Atomic(due)
    }
  }

  let headerSeconds: TimeInterval
  let minimumRate: Double
  private let clock: @Sendable () -> Date
  private let open = Locked<[ObjectIdentifier: Connection]>([:])

  init(headerSeconds: TimeInterval, minimumRate: Double, clock: @escaping @Sendable () -> Date) {
    self.headerSeconds = headerSeconds
    self.minimumRate = minimumRate
    self.clock = clock
  }

  private func millis(_ seconds: TimeInterval) -> Int64 { Int64((clock().timeIntervalSince1970 + seconds) * 1000) }

  /// A connection was accepted: its first headers are due.
  func opened(_ socket: Int32) -> Connection {
    let connection = Connection(socket: socket, due: millis(headerSeconds))
    open.withLock { $0[ObjectIdentifier(connection)] = connection }
    return connection
  }

  /// Answered and kept alive: the next request's headers are due.
  func awaitingHeaders(_ connection: Connection) {
    connection.due.store(millis(headerSeconds), ordering: .relaxed)
  }

  /// The headers arrived; a body of `bytes` is due at the minimum rate
  /// (plus the header allowance, for a slow start).
  func awaitingBody(_ connection: Connection, bytes: Int) {
    connection.due.store(millis(headerSeconds + Double(max(0, bytes)) / max(1, minimumRate)), ordering: .relaxed)
  }

  /// The handler runs: nothing is due until the answer has gone out.
  func answering(_ connection: Connection) {
    connection.due.store(Connection.never, ordering: .relaxed)
  }

  /// libmicrohttpd is about to close the socket (it says so before
  /// closing, so the sweep cannot shut a reused descriptor).
  func closed(_ connection: Connection) {
    _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
  }

  /// Shuts down every connection past its deadline (libmicrohttpd then
  /// reads the end of the stream and closes it), and every one still owing
  /// bytes whose client has gone, and says how many.
  @discardableResult func enforce() -> Int {
    let now = millis(0)
    return open.withLock { connections in
      var cut = 0
      for connection in connections.values {
        let due = connection.due.load(ordering: .relaxed)
        guard due != Connection.never, due <= now || Self.abandoned(connection.socket),
          connection.due.compareExchange(expected: due, desired: Connection.never, ordering: .relaxed).exchanged
        else { continue }
        shutdown(connection.socket, Int32(SHUT_RDWR))
        cut += 1
      }
      return cut
    }
  }

  /// Whether the client closed its end and nothing it sent is left unread:
  /// what it owes can never come. libmicrohttpd notices such a close by
  /// itself, but under ThreadSanitizer one in about thirty was seen missed
  /// until the header deadline, holding the address's connection slot.
  static func abandoned(_ socket: Int32) -> Bool {
    // Linux's POLLRDHUP, which Glibc exports only with _GNU_SOURCE.
    let peerClosed: Int16 = 0x2000
    var state = pollfd(fd: socket, events: peerClosed, revents: 0)
    guard poll(&state, 1, 0) == 1, state.revents & (peerClosed | Int16(POLLHUP)) != 0 else { return false }
    var unread: Int32 = 0
    return ioctl(socket, UInt(FIONREAD), &unread) == 0 && unread == 0
  }

  /// Open connections.
  var count: Int { open.withLock { $0.count } }
}
