import Foundation
import Gateway

/// An `HTTPHandler` that keeps every request and answers with `respond`:
/// stands in for ntfy, a webhook receiver, or any peer a test checks.
public final class RecordingHTTPHandler: HTTPHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var seen: [HTTPRequest] = []
  private let respond: @Sendable (HTTPRequest) -> HTTPResponse

  public init(respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in HTTPResponse(status: 200) }) {
    self.respond = respond
  }

  public var requests: [HTTPRequest] { lock.withLock { seen } }

  public func handle(_ request: HTTPRequest) -> HTTPResponse {
    lock.withLock { seen.append(request) }
    return respond(request)
  }
}
