import Foundation

/// Computes HMAC-SHA256 tags so a webhook receiver can check that a
/// request came from this daemon.
///
/// Contract: the tag is the standard HMAC-SHA256 of `message` under `key`
/// (RFC 2104), 32 bytes, so any language's library checks it.
public protocol MessageAuthenticator: Sendable {
  func tag(_ message: Data, key: Data) -> Data
}
