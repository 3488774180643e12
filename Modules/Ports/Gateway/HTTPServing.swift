/// Where an HTTP server listens and how it protects itself.
public struct HTTPServerOptions: Sendable, Equatable {
  /// An IPv4 address; 127.0.0.1 keeps the server private to the machine
  /// (a TLS reverse proxy in front of it faces the phones).
  public var address: String
  /// 0 asks for any free port (tests).
  public var port: Int
  /// Requests with a larger body are answered 413 without reading it all.
  public var maxBodyBytes: Int
  /// An idle connection is closed after this many seconds.
  public var timeoutSeconds: Int
  public var connectionLimit: Int
  /// Connections one address may hold at once (0: no limit), so one client
  /// cannot take every connection. Behind a reverse proxy every phone comes
  /// from the proxy's address: raise it there, and let the proxy limit.
  public var perAddressLimit: Int
  /// A request's headers must arrive within this many seconds of the
  /// connection opening (or of its previous answer), and its body at
  /// `minimumBodyRate` bytes a second after that; a connection that falls
  /// behind is closed. The idle timeout alone restarts on every byte.
  public var headerSeconds: Int
  public var minimumBodyRate: Int
  /// Threads reading and writing connections (0: one per core). Each serves
  /// many connections, so handlers answer later what takes time
  /// (`HTTPHandler.handle(_:answer:)`).
  public var threads: Int

  public init(
    address: String = "127.0.0.1", port: Int = 8083, maxBodyBytes: Int = 64 * 1024, timeoutSeconds: Int = 10, connectionLimit: Int = 512,
    perAddressLimit: Int = 64, headerSeconds: Int = 10, minimumBodyRate: Int = 1024, threads: Int = 0
  ) {
    self.threads = threads
    self.headerSeconds = headerSeconds
    self.minimumBodyRate = minimumBodyRate
    self.address = address
    self.port = port
    self.maxBodyBytes = maxBodyBytes
    self.timeoutSeconds = timeoutSeconds
    self.connectionLimit = connectionLimit
    self.perAddressLimit = perAddressLimit
  }
}

/// An HTTP/1.1 server (libmicrohttpd in production).
///
/// Contract: `start` binds and begins calling the handler, returning the
/// bound port, or throws naming the address; bodies over
/// `maxBodyBytes` get 413 and never reach the handler; `stop` stops
/// accepting, waits for running handlers to finish, and is idempotent.
public protocol HTTPServing: AnyObject, Sendable {
  func start(_ handler: any HTTPHandler) throws -> Int
  func stop()
}

/// Why a server could not start.
public struct HTTPServerError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  public init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}
