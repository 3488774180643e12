import Foundation

/// No answer at all from a server.
public struct HTTPClientError: Error, Equatable, Sendable, CustomStringConvertible {
  public let url: URL
  public let reason: String

  public init(url: URL, reason: String) {
    self.url = url
    self.reason = reason
  }

  public var description: String { "\(url.absoluteString): \(reason)" }

  /// What every `HTTPSending` refuses before sending: an address that is not
  /// http(s), a header holding a line break (it would start a header the
  /// caller never wrote). Nil when the request may go.
  public static func refusal(of url: URL, headers: [String: String]) -> HTTPClientError? {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      return HTTPClientError(url: url, reason: "only http and https addresses are sent to")
    }
    if let bad = headers.first(where: { ($0.key + $0.value).utf8.contains(where: { $0 == 13 || $0 == 10 }) }) {
      return HTTPClientError(url: url, reason: "the header \(bad.key.debugDescription) holds a line break; not sent")
    }
    return nil
  }

  /// An answer larger than `httpAnswerLimit`, not kept.
  public static func tooLarge(_ url: URL) -> HTTPClientError {
    HTTPClientError(url: url, reason: "the answer is larger than \(httpAnswerLimit >> 20) MiB; not read")
  }
}
