import Foundation
import Gateway
import Notifications

/// Sends one POST and reports the status; the network sinks' transport.
protocol HTTPPoster: Sendable {
  func post(_ url: URL, headers: [String: String], body: Data) throws -> Int
}

extension HTTPPoster {
  /// Posts, and throws the sink's error naming the status unless it is 2xx.
  func postAccepted(_ url: URL, headers: [String: String], body: Data, sink: String, answerer: String) throws {
    let status = try post(url, headers: headers, body: body)
    guard (200..<300).contains(status) else { throw NotificationError(sink: sink, reason: "the \(answerer) answered \(status)") }
  }
}

/// Gateway's blocking client, called from the delivery thread (never from ingest).
struct URLSessionPoster: HTTPPoster {
  let timeout: TimeInterval

  func post(_ url: URL, headers: [String: String], body: Data) throws -> Int {
    try HTTPClient(timeout: timeout).send("POST", url, headers: headers, body: body).status
  }
}
