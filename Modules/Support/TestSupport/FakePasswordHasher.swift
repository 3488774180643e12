import Domain
import Foundation
import Gateway

/// A fast `PasswordHasher` for tests: salted FNV-1a, in a `$fake$` form.
/// Not secure; daemon tests use it so each login costs nothing.
public struct FakePasswordHasher: PasswordHasher {
  public init() {}

  public func hash(_ password: String) throws -> String {
    let salt = String(UInt64.random(in: 1...UInt64.max), radix: 16)
    return "$fake$\(salt)$" + digest(salt, password)
  }

  public func verify(_ password: String, against hash: String) -> Bool {
    let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0].isEmpty, parts[1] == "fake", !parts[2].isEmpty else { return false }
    return digest(String(parts[2]), password) == parts[3]
  }

  private func digest(_ salt: String, _ password: String) -> String {
    FNV1a.hex(FNV1a.hash64(Array((salt + "\u{0}" + password).utf8)))
  }
}
