import CSodium
import Foundation

/// OwnTracks payload encryption (the apps' "encryption key" setting, which
/// OwnTracks' own Recorder also reads): libsodium's secretbox
/// (XSalsa20-Poly1305) under the secret's UTF-8 bytes, cut or padded with
/// zero bytes to 32 as the apps do, carried as base64 of the 24-byte
/// nonce, the 16-byte tag and the ciphertext. A message that was changed
/// or sealed with another key does not open.
public struct SecretBox: Sendable {
  public static let keyBytes = 32
  static let nonceBytes = 24
  static let tagBytes = 16
  private let key: [UInt8]

  public init(secret: String) {
    precondition(SodiumLibrary.ready, "libsodium could not initialise")
    let bytes = Array(secret.utf8.prefix(Self.keyBytes))
    key = bytes + [UInt8](repeating: 0, count: Self.keyBytes - bytes.count)
  }

  /// The plaintext of `base64`, or nil when it is not base64, is too short
  /// to hold a nonce and a tag, or does not open with this key.
  public func open(_ base64: String) -> Data? {
    guard let sealed = Data(base64Encoded: base64, options: .ignoreUnknownCharacters), sealed.count >= Self.nonceBytes + Self.tagBytes else {
      return nil
    }
    let nonce = [UInt8](sealed.prefix(Self.nonceBytes))
    let box = [UInt8](sealed.dropFirst(Self.nonceBytes))
    var plain = [UInt8](repeating: 0, count: box.count - Self.tagBytes + 1)
    let opened = crypto_secretbox_open_easy(&plain, box, UInt64(box.count), nonce, key) == 0
    return opened ? Data(plain.prefix(box.count - Self.tagBytes)) : nil
  }

  /// `plaintext` sealed under a fresh random nonce, as base64.
  public func seal(_ plaintext: Data) -> String {
    let nonce = [UInt8](SodiumLibrary.randomBytes(Self.nonceBytes))
    let message = [UInt8](plaintext)
    var box = [UInt8](repeating: 0, count: message.count + Self.tagBytes)
    _ = crypto_secretbox_easy(&box, message, UInt64(message.count), nonce, key)
    return Data(nonce + box).base64EncodedString()
  }
}
