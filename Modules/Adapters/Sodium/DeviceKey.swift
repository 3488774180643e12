import CSodium
import Foundation

/// A device's own credential: 32 random bytes shown once as base64url, kept
/// as `$wh-device-1$SALT$HASH` (BLAKE2b-256 of the token keyed by a random
/// salt, both hex). A token has 256 bits of entropy, so a fast hash is
/// enough: checking one costs microseconds where a password's Argon2id
/// costs tens of milliseconds and megabytes, and a phone's report no longer
/// proves the person's password.
public enum DeviceKey {
  public static let prefix = "$wh-device-1$"

  /// A new token and the form to store.
  public static func issue() -> (token: String, stored: String) {
    let token = newToken()
    let salt = [UInt8](SodiumLibrary.randomBytes(16))
    return (token, prefix + hex(salt) + "$" + hex(hash(token, salt: salt)))
  }

  /// 256 random bits, URL-safe: a credential for a machine, not a person to remember.
  public static func newToken() -> String {
    precondition(SodiumLibrary.ready, "libsodium could not initialise")
    return Base64URL.encode(SodiumLibrary.randomBytes(32))
  }

  public static func isStoredForm(_ text: String) -> Bool { parse(text) != nil }

  /// Whether `token` is the one `stored` was made from (compared in constant time).
  public static func verify(_ token: String, against stored: String) -> Bool {
    guard let (salt, expected) = parse(stored) else { return false }
    let actual = hash(token, salt: salt)
    return actual.count == expected.count && sodium_memcmp(actual, expected, actual.count) == 0
  }

  static func parse(_ stored: String) -> (salt: [UInt8], hash: [UInt8])? {
    guard stored.hasPrefix(prefix) else { return nil }
    let parts = stored.dropFirst(prefix.count).split(separator: "$")
    guard parts.count == 2, let salt = unhex(parts[0]), let hash = unhex(parts[1]), salt.count == 16, hash.count == 32 else { return nil }
    return (salt, hash)
  }

  static func hash(_ token: String, salt: [UInt8]) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: 32)
    var token = token
    token.withUTF8 { bytes in
      _ = crypto_generichash(&output, 32, bytes.baseAddress, UInt64(bytes.count), salt, salt.count)
    }
    return output
  }

  static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  static func unhex(_ text: Substring) -> [UInt8]? {
    guard text.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
      let next = text.index(index, offsetBy: 2)
      guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    return bytes
  }
}
