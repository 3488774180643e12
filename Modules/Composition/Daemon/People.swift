import Foundation
import Gateway
import Locking
import Sodium

/// The people the daemon serves, and who a request comes from. Argon2id is
/// slow on purpose; an Authorization header that verified once is
/// remembered in memory (as a keyed BLAKE2b hash, never in clear) so a phone
/// posting every few seconds costs one check per process, not one per request.
final class People: Sendable {
  let byName: [String: Person]
  private let hashes: [String: String]
  private let hasher: any PasswordHasher
  let throttle: LoginThrottle
  let gate: VerificationGate
  private let keyed = KeyedHash()
  /// Keyed hash of a whole Authorization header that verified → its person:
  /// a phone repeats the same header, so most requests skip parsing it.
  private let verifiedHeaders = Locked<[UInt128: String]>([:])
  private let decoy = Locked<String?>(nil)
  /// Accepted from loopback as any person's password: how the CLI on this
  /// machine goes through the daemon holding its store (LocalDaemon).
  let localToken: String?

  init(
    people: [Person], hasher: any PasswordHasher, throttle: LoginThrottle = LoginThrottle(), gate: VerificationGate = VerificationGate(),
    localToken: String? = nil
  ) {
    self.gate = gate
    self.localToken = localToken
    byName = Dictionary(uniqueKeysWithValues: people.map { ($0.name, $0) })
    hashes = Dictionary(uniqueKeysWithValues: people.map { ($0.name, $0.settings.password) })
    self.hasher = hasher
    self.throttle = throttle
  }

  enum Refusal: Error, Equatable {
    case missing
    case wrong
    case slowed(retryAfter: Int)
    /// Too many logins are being verified at once: come back shortly.
    case busy
  }

  /// The person whose Basic credentials the request carries. Guessing is
  /// slowed per (address, name), and per address for names that do not
  /// exist; a credential that already verified is never refused, so a
  /// guesser cannot lock out a person's phone or their neighbours behind
  /// the same address.
  func authenticate(_ request: HTTPRequest, now: Date) -> Result<Person, Refusal> {
    if let quick = authenticateQuickly(request) { return quick }
    guard let credentials = request.basicCredentials else { return .failure(.missing) }
    let result = verify(user: credentials.user, password: credentials.password, client: request.clientAddress, now: now)
    if case .success(let person) = result, let header = request.header("authorization") { remember(keyed.fingerprint(header), as: person.name) }
    return result
  }

  /// What `authenticate` answers when that takes no password check (no
  /// credentials, a header verified before, a device key, the local
  /// token); nil when it needs one, which is slow and goes through the gate.
  func authenticateQuickly(_ request: HTTPRequest) -> Result<Person, Refusal>? {
    guard let header = request.header("authorization") else { return .failure(.missing) }
    let headerPrint = keyed.fingerprint(header)
    if let name = verifiedHeaders.withLock({ $0[headerPrint] }), let person = byName[name] { return .success(person) }
    guard let credentials = request.basicCredentials else { return .failure(.missing) }
    // A device's own token: a fast keyed hash, no Argon2id, no queue.
    if let person = byName[credentials.user], !person.settings.deviceKeys.isEmpty {
      let keys = request.header("x-limit-d").flatMap { person.settings.deviceKeys[$0] }.map { [$0] } ?? Array(person.settings.deviceKeys.values)
      if keys.contains(where: { DeviceKey.verify(credentials.password, against: $0) }) {
        remember(headerPrint, as: person.name)
        return .success(person)
      }
    }
    if let localToken, Self.isLoopback(request.clientAddress), let person = byName[credentials.user],
      // Compared as keyed hashes, so the time taken says nothing about the token.
      keyed.fingerprint(credentials.password) == keyed.fingerprint(localToken)
    {
      return .success(person)
    }
    return nil
  }

  /// A name and password checked against the configured hash: the one path
  /// for HTTP Basic and the web page's sign-in, so both share the slowing
  /// of guesses and the bounded verification queue.
  func verify(user: String, password: String, client: String, now: Date) -> Result<Person, Refusal> {
    let pair = "pair:" + client + "|" + user
    let known = byName[user] != nil
    let keys = known ? [pair] : [pair, "ip:" + client]
    if let wait = throttle.retryAfter(keys: keys, now: now) { return .failure(.slowed(retryAfter: wait)) }
    // The same work for a name that does not exist, so timing does not tell names apart.
    let hash = hashes[user] ?? decoyHash()
    guard let verified = gate.run({ hasher.verify(password, against: hash) }) else { return .failure(.busy) }
    guard let person = byName[user], known, verified else {
      throttle.failed(keys: keys, now: now)
      return .failure(.wrong)
    }
    throttle.succeeded(keys: keys)
    return .success(person)
  }

  static func isLoopback(_ address: String) -> Bool {
    address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
  }

  private func remember(_ headerPrint: UInt128, as name: String) {
    verifiedHeaders.withLock { verifiedHeaders in
      // Bounded: headers are per device, so this stays small; a flood of
      // distinct valid headers only costs re-verification.
      if verifiedHeaders.count > 10_000 { verifiedHeaders.removeAll() }
      verifiedHeaders[headerPrint] = name
    }
  }

  private func decoyHash() -> String {
    if let decoy = decoy.withLock({ $0 }) { return decoy }
    let made = (try? hasher.hash(UUID().uuidString)) ?? ""
    decoy.withLock { $0 = made }
    return made
  }
}
