import CSodium
import Foundation
import Gateway

/// Argon2id password hashes (`crypto_pwhash_str_alg`) in the PHC string
/// form `$argon2id$v=19$m=…,t=…,p=1$salt$hash`.
public struct Argon2idHasher: PasswordHasher {
  /// Work factors: libsodium's "interactive" level (64 MiB, 2 passes) by
  /// default; tests may lower them.
  public let operations: UInt64
  public let memoryBytes: Int

  public init(operations: UInt64 = UInt64(crypto_pwhash_opslimit_interactive()), memoryBytes: Int = Int(crypto_pwhash_memlimit_interactive())) {
    precondition(SodiumLibrary.ready, "libsodium could not initialise")
    self.operations = operations
    self.memoryBytes = memoryBytes
  }

  public func hash(_ password: String) throws -> String {
    var output = [CChar](repeating: 0, count: Int(crypto_pwhash_strbytes()))
    let bytes = Array(password.utf8CString.dropLast())
    guard crypto_pwhash_str_alg(&output, bytes, UInt64(bytes.count), operations, memoryBytes, crypto_pwhash_alg_argon2id13()) == 0 else {
      throw SodiumError("Argon2id ran out of memory")
    }
    return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  public func verify(_ password: String, against hash: String) -> Bool {
    guard hash.hasPrefix("$argon2id$"), hash.utf8.count < Int(crypto_pwhash_strbytes()) else { return false }
    let bytes = Array(password.utf8CString.dropLast())
    return crypto_pwhash_str_verify(hash, bytes, UInt64(bytes.count)) == 0
  }
}
