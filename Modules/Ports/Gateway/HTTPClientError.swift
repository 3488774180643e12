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
}
