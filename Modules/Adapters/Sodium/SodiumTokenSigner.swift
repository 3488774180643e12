import CSodium
import Foundation
import Gateway

/// Tokens are the payload followed by its HMAC-SHA-512-256 tag
/// (`crypto_auth`), base64url without padding, so they sit in a URL path.
public struct SodiumTokenSigner: TokenSigner {
  /// 32 bytes: `crypto_auth_KEYBYTES`.
  public static let keyLength = 32
  private let key: [UInt8]

  /// Fails when the key is not `keyLength` bytes.
  public init(key: Data) throws {
    guard key.count == Self.keyLength else {
      throw SodiumError("a token key must be \(Self.keyLength) bytes, not \(key.count)")
    }
    precondition(SodiumLibrary.ready, "libsodium could not initialise")
    self.key = [UInt8](key)
  }

  /// A fresh random key, for a first start or tests.
  public static func generateKey() -> Data { SodiumLibrary.randomBytes(keyLength) }

  public func sign(_ payload: Data) -> String {
    var tag = [UInt8](repeating: 0, count: Int(crypto_auth_BYTES))
    let bytes = [UInt8](payload)
    _ = crypto_auth(&tag, bytes, UInt64(bytes.count), key)
    return Base64URL.encode(payload + Data(tag))
  }

  public func open(_ token: String) -> Data? {
    let tagLength = Int(crypto_auth_BYTES)
    guard token.utf8.count < 4096, let data = Base64URL.decode(token), data.count >= tagLength else { return nil }
    let bytes = [UInt8](data)
    let message = Array(bytes[..<(bytes.count - tagLength)])
    let tag = Array(bytes[(bytes.count - tagLength)...])
    guard crypto_auth_verify(tag, message, UInt64(message.count), key) == 0 else { return nil }
    return Data(message)
  }
}
