import Foundation

/// Seals small payloads into URL-safe tokens that only this server can
/// have made (the answer buttons' links).
///
/// Contract: `open(sign(p)) == p`; any token not made by `sign` with the
/// same key, or changed in any byte, opens to nil; tokens hold no secret
/// beyond the payload, which is readable but not forgeable.
public protocol TokenSigner: Sendable {
  func sign(_ payload: Data) -> String
  func open(_ token: String) -> Data?
}
