import Foundation

/// Sends one HTTP request and waits for its answer: how the sinks, `remote:`
/// stores, Overpass and HTTP analytics reach a server. Composition hands
/// each of them CurlHTTP's client; tests may answer in process.
///
/// Contract (checked by `HTTPSenderConformance` in TestSupport):
/// - The request reaches the server with its method, path, query, every
///   header given and the body byte for byte; a body of nothing is sent as
///   a body of 0 bytes, not left out.
/// - Whatever the server answers comes back as it is, a 4xx or 5xx too
///   (a 401 with its body): the status, the headers with lower-cased
///   names, the body.
/// - A redirect is answered, not followed: a request goes only to the
///   address it was given.
/// - Only when no answer comes (nothing listens, the timeout passed, the
///   address is not http or https) does it throw `HTTPClientError`,
///   naming the address; nothing is sent to an address that is not http(s).
/// - A header name or value holding a line break is refused before
///   anything is sent (it would start a header the caller never wrote).
/// - An answer whose body is larger than `httpAnswerLimit` is not kept:
///   that throws too, so a server cannot fill the caller's memory.
/// - It blocks the calling thread until then: never call it from ingest.
/// The largest answer body an `HTTPSending` keeps, bytes: far above what
/// ntfy, a webhook receiver, Overpass or whilehered answer.
public let httpAnswerLimit = 16 << 20

public protocol HTTPSending: Sendable {
  func send(_ method: String, _ url: URL, headers: [String: String], body: Data?, timeout: TimeInterval) throws -> HTTPResponse
}
