import Foundation

/// An `HTTPServing` without sockets: `send` calls the handler in-process,
/// enforcing the body limit as a real server would.
public final class DirectHTTPServer: HTTPServing, @unchecked Sendable {
  public let options: HTTPServerOptions
  private let lock = NSLock()
  private var handler: (any HTTPHandler)?

  public init(options: HTTPServerOptions = HTTPServerOptions(port: 0)) {
    self.options = options
  }

  public func start(_ handler: any HTTPHandler) throws -> Int {
    try lock.withLock {
      guard self.handler == nil else { throw HTTPServerError("the server is already running") }
      self.handler = handler
      return options.port == 0 ? 1 : options.port
    }
  }

  public func stop() { lock.withLock { handler = nil } }

  /// Answers a request, or nil when stopped.
  public func send(_ request: HTTPRequest) -> HTTPResponse? {
    guard let handler = lock.withLock({ handler }) else { return nil }
    guard request.body.count <= options.maxBodyBytes else { return .failure(413, "the body is larger than \(options.maxBodyBytes) bytes") }
    return handler.handle(request)
  }
}
