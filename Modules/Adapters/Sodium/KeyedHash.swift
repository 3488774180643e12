import CSodium
import Foundation

/// BLAKE2b keyed hash (`crypto_generichash`, 16 bytes): a fast, secret
/// fingerprint, for remembering what already verified without keeping it.
public struct KeyedHash: Sendable {
  private let key: [UInt8]

  /// A fresh random key for this process.
  public init() {
    precondition(SodiumLibrary.ready, "libsodium could not initialise")
    key = [UInt8](SodiumLibrary.randomBytes(32))
  }

  public func fingerprint(_ text: String) -> UInt128 {
    var output = (UInt64(0), UInt64(0))
    var text = text
    text.withUTF8 { bytes in
      withUnsafeMutableBytes(of: &output) { out in
        _ = crypto_generichash(
          out.bindMemory(to: UInt8.self).baseAddress!, 16, bytes.baseAddress, UInt64(bytes.count), key, key.count)
      }
    }
    return UInt128(output.0) << 64 | UInt128(output.1)
  }
}
