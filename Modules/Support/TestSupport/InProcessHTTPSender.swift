import Foundation
import Gateway
import Locking

/// `HTTPSending` without sockets: each `serve` gives a handler an address
/// of its own (`http://in-process-N/`), and a request to it is that
/// handler's call on the sender's thread. For tests of what the sinks and
/// stores send, where a real server adds nothing.
public final class InProcessHTTPSender: HTTPSending {
  private let handlers = Locked<(next: Int, by: [String: any HTTPHandler])>((1, [:]))

  public init() {}

  /// `handler`'s address, and how to take it down (a request then finds nothing).
  public func serve(_ handler: any HTTPHandler) -> (base: URL, stop: @Sendable () -> Void) {
    let host = handlers.withLock { handlers in
      defer { handlers.next += 1 }
      let host = "in-process-\(handlers.next)"
      handlers.by[host] = handler
      return host
    }
    return (URL(string: "http://\(host)/")!, { [handlers] in _ = handlers.withLock { $0.by.removeValue(forKey: host) } })
  }

  public func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse {
    if let refusal = HTTPClientError.refusal(of: url, headers: headers) { throw refusal }
    guard let host = url.host, let handler = handlers.withLock({ $0.by[host] }) else {
      throw HTTPClientError(url: url, reason: "nothing listens there")
    }
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let query = Dictionary((components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
    let path = url.path.isEmpty ? "/" : url.path
    var sent = headers
    if let body { sent["Content-Length"] = String(body.count) }
    let answer = handler.answer(HTTPRequest(method: method, path: path, query: query, headers: sent, body: body ?? Data()))
    guard answer.body.count <= httpAnswerLimit else { throw HTTPClientError.tooLarge(url) }
    let lowered = Dictionary(answer.headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    return HTTPResponse(status: answer.status, headers: lowered, body: answer.body)
  }
}
