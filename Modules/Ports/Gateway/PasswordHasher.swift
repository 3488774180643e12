/// Turns passwords into slow, salted hashes for the config file, and checks
/// passwords against them.
///
/// Contract: `hash` returns a self-describing string (Argon2id's
/// `$argon2id$…` form in production) that never contains the password;
/// `verify` is true only for the password that was hashed, and false
/// (never a trap) for a malformed hash.
public protocol PasswordHasher: Sendable {
  func hash(_ password: String) throws -> String
  func verify(_ password: String, against hash: String) -> Bool
}
