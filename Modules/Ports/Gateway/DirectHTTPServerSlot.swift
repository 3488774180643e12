import Locking

/// Holds the in-process server a daemon made through its registry entry,
/// so whoever started the daemon (a test, the simulator) can send
/// requests to it once it exists.
public final class DirectHTTPServerSlot: Sendable {
  private let made = Locked<DirectHTTPServer?>(nil)

  public init() {}

  /// The server, once made.
  public var server: DirectHTTPServer? { made.withLock { $0 } }

  /// Keeps `server` and returns it (for the factory's result).
  public func keep(_ server: DirectHTTPServer) -> DirectHTTPServer {
    made.withLock { $0 = server }
    return server
  }
}
