import Foundation
import Gateway
import Notifications

/// Sends one POST and reports the status; the network sinks' transport.
protocol HTTPPoster: Sendable {
  func post(_ url: URL, headers: [String: String], body: Data) throws -> Int
}

extension HTTPPoster {
  /// Posts, and throws the sink's error naming the status unless it is 2xx.
  /// A 4xx other than 408 (timeout) and 429 (slow down) is permanent: the
  /// same request will be refused again.
  func postAccepted(_ url: URL, headers: [String: String], body: Data, sink: String, answerer: String) throws {
    let status = try post(url, headers: headers, body: body)
    guard (200..<300).contains(status) else {
      let permanent = (400..<500).contains(status) && status != 408 && status != 429
      throw NotificationError(sink: sink, reason: "the \(answerer) answered \(status)", permanent: permanent)
    }
  }
}

/// The client Composition gave the sink, called from the delivery thread (never from ingest).
struct ClientPoster: HTTPPoster {
  let client: any HTTPSending
  let timeout: TimeInterval

  func post(_ url: URL, headers: [String: String], body: Data) throws -> Int {
    try client.send("POST", url, headers: headers, body: body, timeout: timeout).status
  }
}
