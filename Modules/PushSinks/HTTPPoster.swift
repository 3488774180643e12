import Foundation
import Gateway

/// Sends one POST and reports the status; the network sinks' transport.
protocol HTTPPoster: Sendable {
  func post(_ url: URL, headers: [String: String], body: Data) throws -> Int
}

/// Gateway's blocking client, called from the delivery thread (never from ingest).
struct URLSessionPoster: HTTPPoster {
  let timeout: TimeInterval

  func post(_ url: URL, headers: [String: String], body: Data) throws -> Int {
    try HTTPClient(timeout: timeout).send("POST", url, headers: headers, body: body).status
  }
}
