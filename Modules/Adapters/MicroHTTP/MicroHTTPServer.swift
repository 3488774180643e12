import CMicroHTTPD
import Foundation
import Gateway
import Locking

/// `HTTPServing` over libmicrohttpd: a few polling threads (one per core)
/// each serving many connections; a request the handler answers later is
/// suspended meanwhile and resumed with its answer, so a durable write or
/// a password check holds up no other connection. Content-Length and
/// streamed body limits, header and body deadlines, an idle timeout and
/// connection caps.
public final class MicroHTTPServer: HTTPServing, @unchecked Sendable {
  public let options: HTTPServerOptions
  private let lock = NSLock()
  private var daemon: OpaquePointer?
  // Guarded by `lock`; read by C callbacks through `Unmanaged`.
  private var handler: (any HTTPHandler)?

  /// Header and body deadlines, on `clock` (tests drive it by hand).
  let deadlines: RequestDeadlines
  private var watchdog: DispatchSourceTimer?

  public init(options: HTTPServerOptions, clock: @escaping @Sendable () -> Date = { Date() }) {
    self.options = options
    deadlines = RequestDeadlines(
      headerSeconds: TimeInterval(max(1, options.headerSeconds)), minimumRate: Double(max(1, options.minimumBodyRate)), clock: clock)
  }

  /// Cuts every connection past its header or body deadline now (the
  /// server also does so every second) and says how many.
  @discardableResult public func enforceDeadlines() -> Int { deadlines.enforce() }

  /// Connections open now.
  public var openConnections: Int { deadlines.count }

  deinit { stop() }

  public func start(_ handler: any HTTPHandler) throws -> Int {
    try lock.withLock {
      guard daemon == nil else { throw HTTPServerError("the server is already running") }
      guard (0...65535).contains(options.port) else { throw HTTPServerError("port \(options.port) is not between 0 and 65535") }
      self.handler = handler
      let context = Unmanaged.passUnretained(self).toOpaque()
      accepting = true
      let started = wh_mhd_start(
        options.address, UInt16(options.port), MicroHTTPServer.acceptPolicy, context, MicroHTTPServer.access, context,
        MicroHTTPServer.completed, context,
        MicroHTTPServer.notify, context,
        UInt32(max(1, options.timeoutSeconds)), UInt32(max(1, options.connectionLimit)), Self.connectionMemory,
        UInt32(max(0, options.perAddressLimit)), UInt32(options.threads > 0 ? options.threads : ProcessInfo.processInfo.activeProcessorCount))
      guard let started else {
        self.handler = nil
        throw HTTPServerError("cannot listen on \(options.address):\(options.port) (address in use, not an IPv4 address, or not allowed)")
      }
      daemon = started
      let timer = DispatchSource.makeTimerSource(queue: .global())
      timer.schedule(deadline: .now() + 1, repeating: 1)
      timer.setEventHandler { [deadlines] in deadlines.enforce() }
      timer.resume()
      watchdog = timer
      return Int(wh_mhd_bound_port(started))
    }
  }

  /// Stops taking new connections (each is closed as soon as it is
  /// accepted); requests already being served go on. Not libmicrohttpd's
  /// quiesce: on this daemon (epoll, its own threads) it races the threads'
  /// own removal of the listen socket and aborts the process now and then.
  public func beginStopping() {
    lock.withLock { accepting = false }
  }

  /// Whether new connections are taken (guarded by `lock`).
  private var accepting = false

  private static let acceptPolicy: MHD_AcceptPolicyCallback = { cls, _, _ in
    guard let cls else { return .NO }
    let server = Unmanaged<MicroHTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.lock.withLock { server.accepting } ? .YES : .NO
  }

  /// Stops taking new connections, lets requests in flight finish (at
  /// most `drainSeconds`), then closes every connection.
  public func stop() { stop(draining: nil) }

  /// `draining` hears how many requests are in flight once new connections
  /// are refused, before they are waited for (the daemon logs it).
  public func stop(draining: ((Int) -> Void)?) {
    beginStopping()
    draining?(inFlight.withLock { $0 })
    let deadline = Date().addingTimeInterval(drainSeconds)
    // Requests in flight are other threads' work: wait for them, bounded.
    while inFlight.withLock({ $0 }) > 0, Date() < deadline { usleep(2000) }
    // libmicrohttpd cannot stop with a connection suspended: what is still
    // waiting for its handler is answered 503 now (its answer, if it comes, is dropped).
    let waiting = suspendedUploads.withLock { Array($0.values) }
    for upload in waiting { upload.deliver(.failure(503, "the server is stopping; send it again")) }
    // Those answers go out from the server's threads: let them, briefly.
    let sent = Date().addingTimeInterval(waiting.isEmpty ? 0 : 1)
    while inFlight.withLock({ $0 }) > 0, Date() < sent { usleep(2000) }
    let running: OpaquePointer? = lock.withLock {
      defer {
        daemon = nil
        watchdog?.cancel()
        watchdog = nil
      }
      return daemon
    }
    // Outside the lock: stopping joins connection threads, which read `handler`.
    if let running { MHD_stop_daemon(running) }
  }

  /// Requests whose headers arrived and whose answer has not gone out yet.
  public var requestsInFlight: Int { inFlight.withLock { $0 } }

  /// How long `stop` waits for requests in flight.
  public var drainSeconds: TimeInterval = 5
  /// Requests whose headers arrived and whose answer has not gone out.
  fileprivate let inFlight = Locked(0)
  /// Requests suspended until their handler answers, by identity.
  fileprivate let suspendedUploads = Locked<[ObjectIdentifier: Upload]>([:])

  /// libmicrohttpd's per-connection pool (headers and its buffers; bodies
  /// are kept in Swift). It clears the pool for every request, so a large
  /// one costs time on every request: 16 KiB holds any phone's or browser's
  /// headers (larger ones are refused with 431).
  static let connectionMemory = 16 * 1024

  /// The most an oversize body is read (and dropped) so its sender sees the 413.
  static let drainLimit = 64 * 1024 * 1024

  fileprivate var currentHandler: (any HTTPHandler)? { lock.withLock { handler } }

  /// One request's body as it arrives, kept between callbacks, and its
  /// answer once the handler gave it.
  final class Upload: @unchecked Sendable {
    var body = Data()
    var tooLarge = false
    /// Bytes read so far, kept or dropped.
    var received = 0
    /// Counted in flight until completed.
    weak var server: MicroHTTPServer?
    /// Handed to the handler (set once, on the connection's thread).
    var dispatched = false
    /// Guards `answer`, `delivered`, `connection` and `suspendedBy`.
    let lock = NSLock()
    var answer: HTTPResponse?
    /// While suspended: the connection to resume, and the server holding it.
    var connection: OpaquePointer?
    var suspendedBy: MicroHTTPServer?

    /// Keeps the handler's answer (the first only) and resumes the
    /// connection if it was suspended for it; from any thread.
    func deliver(_ response: HTTPResponse) {
      lock.lock()
      defer { lock.unlock() }
      guard !delivered else { return }
      answer = response
      delivered = true
      if let connection, let server = suspendedBy {
        self.connection = nil
        suspendedBy = nil
        server.suspendedUploads.withLock { $0[ObjectIdentifier(self)] = nil }
        MHD_resume_connection(connection)
      }
    }
    private var delivered = false

    /// The answer if it came already; otherwise suspends the connection
    /// until `deliver` (on the connection's thread, inside its callback).
    func answerOrSuspend(_ connection: OpaquePointer, server: MicroHTTPServer) -> HTTPResponse? {
      lock.lock()
      defer { lock.unlock() }
      if let answer {
        self.answer = nil
        return answer
      }
      self.connection = connection
      suspendedBy = server
      server.suspendedUploads.withLock { $0[ObjectIdentifier(self)] = self }
      MHD_suspend_connection(connection)
      return nil
    }
  }

  private static let access: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadSize, state in
    guard let cls, let connection, let uploadSize, let state else { return .NO }
    let server = Unmanaged<MicroHTTPServer>.fromOpaque(cls).takeUnretainedValue()
    let limit = server.options.maxBodyBytes
    guard let pointer = state.pointee else {
      // First call: headers only. Refuse framing a proxy in front could read
      // differently (request smuggling), then a declared oversize body before reading it.
      if let refusal = framingProblem(connection, method: method.map { String(cString: $0) } ?? "", version: version.map { String(cString: $0) } ?? "") {
        return queue(connection, refusal)
      }
      let upload = Upload()
      let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").flatMap { Int(String(cString: $0)) }
      if let declared, declared > limit {
        // A client waiting for 100-continue, or one declaring more than is
        // worth reading, is answered now. Any other client is already
        // sending: answering now and closing would reset the connection
        // before it reads the 413, so its body is read and dropped first.
        let expects = MHD_lookup_connection_value(connection, .HEADER_KIND, "Expect").map { String(cString: $0).lowercased() } == "100-continue"
        if expects || declared > MicroHTTPServer.drainLimit { return queue(connection, .failure(413, "the body is larger than \(limit) bytes")) }
        upload.tooLarge = true
      }
      let chunked = MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil
      let owed = declared.map { min($0, MicroHTTPServer.drainLimit) } ?? (chunked ? limit : 0)
      if let tracked = tracked(connection) { server.deadlines.awaitingBody(tracked, bytes: owed) }
      // In flight from here until the completed callback releases it.
      server.inFlight.withLock { $0 += 1 }
      upload.server = server
      state.pointee = Unmanaged.passRetained(upload).toOpaque()
      return .YES
    }
    let upload = Unmanaged<Upload>.fromOpaque(pointer).takeUnretainedValue()
    if uploadSize.pointee > 0 {
      upload.received += uploadSize.pointee
      // A body without a declared length can be dropped only so far.
      if upload.received > MicroHTTPServer.drainLimit { return .NO }
      if !upload.tooLarge, let uploadData {
        if upload.body.count + uploadSize.pointee > limit {
          upload.tooLarge = true
          upload.body = Data()
        } else {
          uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) { bytes in
            upload.body.append(bytes, count: uploadSize.pointee)
          }
        }
      }
      uploadSize.pointee = 0
      return .YES
    }
    if upload.tooLarge { return queue(connection, .failure(413, "the body is larger than \(limit) bytes")) }
    // Called again once resumed: the answer is there.
    if upload.dispatched { return upload.answerOrSuspend(connection, server: server).map { queue(connection, $0) } ?? .YES }
    guard let handler = server.currentHandler else { return queue(connection, .failure(503, "the server is stopping")) }
    if let tracked = tracked(connection) { server.deadlines.answering(tracked) }
    let request = HTTPRequest(
      method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
      query: values(connection, .GET_ARGUMENT_KIND), headers: values(connection, .HEADER_KIND), body: upload.body,
      clientAddress: clientAddress(connection))
    upload.dispatched = true
    upload.body = Data()
    handler.handle(request) { upload.deliver($0) }
    return upload.answerOrSuspend(connection, server: server).map { queue(connection, $0) } ?? .YES
  }

  /// Two Content-Lengths, or Content-Length with Transfer-Encoding, are
  /// read one way by one server and another way by the next: refused. An
  /// HTTP/1.0 request with a body method and no Content-Length has no
  /// length this server reads (its body would be dropped): 411.
  static func framingProblem(_ connection: OpaquePointer, method: String, version: String) -> HTTPResponse? {
    final class Counter {
      var lengths: [String] = []
      var transferEncoding = false
    }
    let counter = Counter()
    let context = Unmanaged.passUnretained(counter).toOpaque()
    _ = MHD_get_connection_values(connection, .HEADER_KIND, { cls, _, key, value in
      guard let cls, let key else { return .YES }
      let counter = Unmanaged<Counter>.fromOpaque(cls).takeUnretainedValue()
      switch String(cString: key).lowercased() {
      case "content-length": counter.lengths.append(value.map { String(cString: $0) } ?? "")
      case "transfer-encoding": counter.transferEncoding = true
      default: break
      }
      return .YES
    }, context)
    return withExtendedLifetime(counter) {
      if counter.lengths.count > 1 { return .failure(400, "the request has \(counter.lengths.count) Content-Length headers; send one") }
      if counter.transferEncoding, !counter.lengths.isEmpty {
        return .failure(400, "the request has both Transfer-Encoding and Content-Length; send one of them")
      }
      if version == "HTTP/1.0", ["POST", "PUT", "PATCH"].contains(method), counter.lengths.isEmpty, !counter.transferEncoding {
        return .failure(411, "an HTTP/1.0 \(method) needs a Content-Length")
      }
      return nil
    }
  }

  private static let completed: MHD_RequestCompletedCallback = { cls, connection, state, _ in
    if let cls, let connection {
      // Kept alive: the next request's headers are due (a closing connection is forgotten in `notify`).
      if let tracked = tracked(connection) { Unmanaged<MicroHTTPServer>.fromOpaque(cls).takeUnretainedValue().deadlines.awaitingHeaders(tracked) }
    }
    guard let state, let pointer = state.pointee else { return }
    let upload = Unmanaged<Upload>.fromOpaque(pointer).takeUnretainedValue()
    upload.server?.inFlight.withLock { $0 -= 1 }
    Unmanaged<Upload>.fromOpaque(pointer).release()
    state.pointee = nil
  }

  /// Each connection's deadline lives in its socket context, retained from
  /// its start to its close.
  private static let notify: MHD_NotifyConnectionCallback = { cls, connection, context, code in
    guard let cls, let connection, let context else { return }
    let deadlines = Unmanaged<MicroHTTPServer>.fromOpaque(cls).takeUnretainedValue().deadlines
    if code == .CONNECTION_NOTIFY_STARTED {
      context.pointee = Unmanaged.passRetained(deadlines.opened(wh_mhd_connection_fd(connection))).toOpaque()
    } else if let pointer = context.pointee {
      let tracked = Unmanaged<RequestDeadlines.Connection>.fromOpaque(pointer)
      deadlines.closed(tracked.takeUnretainedValue())
      tracked.release()
      context.pointee = nil
    }
  }

  private static func tracked(_ connection: OpaquePointer) -> RequestDeadlines.Connection? {
    wh_mhd_socket_context(connection).map { Unmanaged<RequestDeadlines.Connection>.fromOpaque($0).takeUnretainedValue() }
  }

  private static func queue(_ connection: OpaquePointer, _ response: HTTPResponse) -> MHD_Result {
    let made = response.body.withUnsafeBytes { bytes in
      MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    for (name, value) in response.headers { MHD_add_response_header(made, name, value) }
    return MHD_queue_response(connection, UInt32(response.status), made)
  }

  private static func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [String: String] {
    final class Collector { var values: [String: String] = [:] }
    let collector = Collector()
    let context = Unmanaged.passUnretained(collector).toOpaque()
    _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
      guard let cls, let key else { return .YES }
      let collector = Unmanaged<Collector>.fromOpaque(cls).takeUnretainedValue()
      collector.values[String(cString: key)] = value.map { String(cString: $0) } ?? ""
      return .YES
    }, context)
    return withExtendedLifetime(collector) { collector.values }
  }

  private static func clientAddress(_ connection: OpaquePointer) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    wh_mhd_client_address(connection, &buffer, socklen_t(buffer.count))
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
