import CMicroHTTPD
import Foundation
import Synchronization

/// When each open connection must have sent what it owes: its request's
/// headers within `headerSeconds` of connecting (or of its last answer, on
/// a kept-alive connection), then its body at `minimumRate` bytes a second
/// at least. libmicrohttpd restarts its idle timer on every byte, so without
/// this a client trickling a byte every few seconds from many addresses
/// holds every connection; a connection past its deadline is shut down.
/// While the handler runs (it may wait for a durable write) nothing is due.
final class RequestDeadlines: Sendable {
  private struct Entry {
    /// When the connection is cut if it has not moved on; nil while answering or once cut.
    var due: Date?
  }

  let headerSeconds: TimeInterval
  let minimumRate: Double
  private let clock: @Sendable () -> Date
  private let entries = Mutex<[Int32: Entry]>([:])

  init(headerSeconds: TimeInterval, minimumRate: Double, clock: @escaping @Sendable () -> Date) {
    self.headerSeconds = headerSeconds
    self.minimumRate = minimumRate
    self.clock = clock
  }

  /// A connection was accepted, or answered and kept alive: its next headers are due.
  func awaitingHeaders(_ socket: Int32) {
    let due = clock().addingTimeInterval(headerSeconds)
    entries.withLock { $0[socket] = Entry(due: due) }
  }

  /// The headers arrived; a body of `bytes` is due at the minimum rate
  /// (plus the header allowance, for a slow start).
  func awaitingBody(_ socket: Int32, bytes: Int) {
    let due = clock().addingTimeInterval(headerSeconds + Double(max(0, bytes)) / max(1, minimumRate))
    entries.withLock { if $0[socket] != nil { $0[socket] = Entry(due: due) } }
  }

  /// The handler runs: nothing is due until the answer has gone out.
  func answering(_ socket: Int32) {
    entries.withLock { if $0[socket] != nil { $0[socket] = Entry(due: nil) } }
  }

  /// libmicrohttpd is about to close the socket (it says so before closing,
  /// so the descriptor cannot have been reused for another connection yet).
  func closed(_ socket: Int32) {
    _ = entries.withLock { $0.removeValue(forKey: socket) }
  }

  /// Shuts down every connection past its deadline (libmicrohttpd then
  /// reads the end of the stream and closes it) and says how many.
  @discardableResult func enforce() -> Int {
    let now = clock()
    return entries.withLock { entries in
      var cut = 0
      for (socket, entry) in entries {
        guard let due = entry.due, due <= now else { continue }
        shutdown(socket, Int32(SHUT_RDWR))
        entries[socket] = Entry(due: nil)
        cut += 1
      }
      return cut
    }
  }

  /// Open connections being tracked.
  var count: Int { entries.withLock { $0.count } }
}
