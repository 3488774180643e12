import CSodium
import Foundation

/// libsodium must be initialised once before any other call; every type
/// here goes through `ready` first.
enum SodiumLibrary {
  static let ready: Bool = sodium_init() >= 0

  static func randomBytes(_ count: Int) -> Data {
    precondition(ready, "libsodium could not initialise")
    var bytes = [UInt8](repeating: 0, count: count)
    randombytes_buf(&bytes, count)
    return Data(bytes)
  }
}
