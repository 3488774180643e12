import Foundation
import Locking

/// An `HTTPServing` without sockets: `send` calls the handler in-process,
/// enforcing the body limit as a real server would, and waiting for an
/// answer the handler gives later.
public final class DirectHTTPServer: HTTPServing, Sendable {
  public let options: HTTPServerOptions
  private let handler = Locked<(any HTTPHandler)?>(nil)

  public init(options: HTTPServerOptions = HTTPServerOptions(port: 0)) {
    self.options = options
  }

  public func start(_ handler: any HTTPHandler) throws -> Int {
    try self.handler.withLock { (current: inout (any HTTPHandler)?) throws(HTTPServerError) in
      guard current == nil else { throw HTTPServerError("the server is already running") }
      current = handler
    }
    return options.port == 0 ? 1 : options.port
  }

  public func stop() { handler.withLock { $0 = nil } }

  /// Answers a request, or nil when stopped.
  public func send(_ request: HTTPRequest) -> HTTPResponse? {
    guard let handler = handler.withLock({ $0 }) else { return nil }
    guard request.body.count <= options.maxBodyBytes else { return .failure(413, "the body is larger than \(options.maxBodyBytes) bytes") }
    return handler.answer(request)
  }
}
