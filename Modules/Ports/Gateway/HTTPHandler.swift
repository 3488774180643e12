import Locking

/// Answers requests. Called on the server's threads, several at once.
///
/// Contract: every request gets exactly one response, whichever method the
/// server calls; the handler never throws or traps on any input
/// (malformed, oversized, hostile); a 4xx answer means nothing was changed.
public protocol HTTPHandler: Sendable {
  func handle(_ request: HTTPRequest) -> HTTPResponse

  /// Answers `request` by calling `answer` exactly once, before returning or
  /// later from any thread. A server whose threads each serve many
  /// connections calls this, so that work which waits (a durable write, a
  /// password check) holds up no other connection: such work must go
  /// elsewhere and answer from there. The default answers at once with
  /// `handle(_:)`.
  func handle(_ request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void)
}

extension HTTPHandler {
  public func handle(_ request: HTTPRequest, answer: @escaping @Sendable (HTTPResponse) -> Void) {
    answer(handle(request))
  }

  /// Waits for the answer of `handle(_:answer:)`: for callers that have a
  /// thread to spend (in-process servers, tests).
  public func answer(_ request: HTTPRequest) -> HTTPResponse {
    let answered = OneShot<HTTPResponse>()
    handle(request) { answered.put($0) }
    return answered.take()
  }
}
