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
    var output = Data(count: Int(crypto_auth_hmacsha256_BYTES))
    // An empty key is still a key (HMAC pads it); libsodium wants a pointer.
    let keyBytes = key.isEmpty ? Data([0]) : key
    keyBytes.withUnsafeBytes { bytes in
      _ = crypto_auth_hmacsha256_init(&state, bytes.bindMemory(to: UInt8.self).baseAddress!, key.count)
    }
    message.withUnsafeBytes { message in
      guard let bytes = message.bindMemory(to: UInt8.self).baseAddress else { return }
      _ = crypto_auth_hmacsha256_update(&state, bytes, UInt64(message.count))
    }
    output.withUnsafeMutableBytes { output in
      // 32 bytes, so never a nil base address.
      _ = crypto_auth_hmacsha256_final(&state, output.bindMemory(to: UInt8.self).baseAddress!)
    }
    return output
  }
}
