/// Answers requests. Called on the server's threads, several at once.
///
/// Contract: `handle` returns a response for every request, never throws
/// or traps on any input (malformed, oversized, hostile); a 4xx answer
/// means nothing was changed.
public protocol HTTPHandler: Sendable {
  func handle(_ request: HTTPRequest) -> HTTPResponse
}
