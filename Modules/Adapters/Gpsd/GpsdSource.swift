import Domain
import Foundation
import Geofencing
import Locking

/// A GPS attached to this machine, through gpsd's JSON socket (TCP 2947):
/// `?WATCH`, then one report per line. Reconnects with backoff when gpsd
/// goes away.
public final class GpsdSource: LocationSource, Sendable {
  public let host: String
  public let port: Int
  public var name: String { "gpsd:\(host):\(port)" }
  let clock: any WallClock
  let log: @Sendable (String) -> Void
  private let state = Locked(Connection())

  private struct Connection {
    var running = false
    var socket: Int32 = -1
    var threadStarted = false
  }
  private let finished = DispatchSemaphore(value: 0)

  public init(host: String = "127.0.0.1", port: Int = 2947, clock: any WallClock, log: @escaping @Sendable (String) -> Void = { _ in }) {
    self.host = host
    self.port = port
    self.clock = clock
    self.log = log
  }

  public func start(_ deliver: @escaping @Sendable (PhoneReport) -> Void) throws {
    let name = name
    try state.withLock { (state: inout Connection) throws(LocationSourceError) in
      guard !state.running else { throw LocationSourceError("\(name) is already running") }
      state.running = true
    }
    let thread = Thread { [self] in
      run(deliver)
      finished.signal()
    }
    thread.name = "whilehere.gpsd"
    state.withLock { $0.threadStarted = true }
    thread.start()
  }

  public func stop() {
    let wasRunning = state.withLock { state -> Bool in
      defer { state.running = false }
      if state.socket >= 0 { shutdown(state.socket, Int32(SHUT_RDWR)) }
      return state.running && state.threadStarted
    }
    if wasRunning { finished.wait() }
  }

  private var isRunning: Bool { state.withLock { $0.running } }

  private func run(_ deliver: @escaping @Sendable (PhoneReport) -> Void) {
    var delay: UInt32 = 1
    while isRunning {
      if let connected = connect() {
        delay = 1
        state.withLock { $0.socket = connected }
        read(connected, deliver)
        state.withLock { $0.socket = -1 }
        close(connected)
        if isRunning { log("\(name): connection lost; reconnecting") }
      } else {
        log("\(name): cannot connect; retrying in \(delay) s")
      }
      // Wait out the backoff in short steps so `stop` is prompt.
      for _ in 0..<(delay * 10) where isRunning { usleep(100_000) }
      delay = min(delay * 2, 30)
    }
  }

  private func connect() -> Int32? {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var results: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &results) == 0, let first = results else { return nil }
    defer { freeaddrinfo(results) }
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let current = entry {
      let candidate = Foundation.socket(current.pointee.ai_family, current.pointee.ai_socktype, current.pointee.ai_protocol)
      if candidate >= 0 {
        if Foundation.connect(candidate, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 {
          let sent = GpsdReport.watch.withUnsafeBytes { send(candidate, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
          if sent == GpsdReport.watch.count { return candidate }
        }
        close(candidate)
      }
      entry = current.pointee.ai_next
    }
    return nil
  }

  /// Reads lines until the socket closes; a line longer than 64 KiB is not gpsd.
  private func read(_ socket: Int32, _ deliver: @Sendable (PhoneReport) -> Void) {
    var pending = Data()
    var buffer = [UInt8](repeating: 0, count: 8192)
    while isRunning {
      let count = recv(socket, &buffer, buffer.count, 0)
      guard count > 0 else { return }
      pending.append(contentsOf: buffer[0..<count])
      while let newline = pending.firstIndex(of: 0x0A) {
        let line = pending[pending.startIndex..<newline]
        pending = Data(pending[pending.index(after: newline)...])
        if let fix = GpsdReport.fix(from: Data(line), receivedAt: clock.now()) { deliver(.location(fix)) }
      }
      if pending.count > 65_536 {
        log("\(name): a line longer than 64 KiB; reconnecting")
        return
      }
    }
  }
}
