import Foundation
import Gateway
import Locking

/// An `HTTPHandler` that keeps every request and answers with `respond`:
/// stands in for ntfy, a webhook receiver, or any peer a test checks.
public final class RecordingHTTPHandler: HTTPHandler, Sendable {
  private let seen = Locked<[HTTPRequest]>([])
  private let respond: @Sendable (HTTPRequest) -> HTTPResponse

  public init(respond: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in HTTPResponse(status: 200) }) {
    self.respond = respond
  }

  public var requests: [HTTPRequest] { seen.withLock { $0 } }

  public func handle(_ request: HTTPRequest) -> HTTPResponse {
    seen.withLock { $0.append(request) }
    return respond(request)
  }
}
