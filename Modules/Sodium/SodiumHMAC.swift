import CSodium
import Foundation
import Gateway

/// HMAC-SHA256 through libsodium's `crypto_auth_hmacsha256_*` with a key
/// of any length, as webhook receivers expect.
public struct SodiumHMAC: MessageAuthenticator {
  public init() {
    precondition(SodiumLibrary.ready, "libsodium could not initialise")
  }

  public func tag(_ message: Data, key: Data) -> Data {
    var state = crypto_auth_hmacsha256_state()
    var output = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
    let keyBytes = [UInt8](key)
    let messageBytes = [UInt8](message)
    _ = crypto_auth_hmacsha256_init(&state, keyBytes, keyBytes.count)
    _ = crypto_auth_hmacsha256_update(&state, messageBytes, UInt64(messageBytes.count))
    _ = crypto_auth_hmacsha256_final(&state, &output)
    return Data(output)
  }
}
