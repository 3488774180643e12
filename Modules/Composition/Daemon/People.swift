import Foundation
import Gateway
import Locking
import Sodium

/// The people the daemon serves, and who a request comes from. Argon2id is
/// slow on purpose; an Authorization header that verified once is
/// remembered in memory (as a keyed BLAKE2b hash, never in clear) so a phone
/// posting every few seconds costs one check per process, not one per request.
///
/// Logins need only the config (`Member`); a person's store and engine are
/// opened by `person(_:)` when first needed. A single daemon opens everyone
/// at start; a cluster worker only the people of the partitions it holds,
/// and those a request to its API names.
final class People: Sendable {
  /// Everyone in the config, opened or not.
  let members: [String: Member]
  private let hasher: any PasswordHasher
  let throttle: LoginThrottle
  let gate: VerificationGate
  private let keyed = KeyedHash()
  /// Keyed hash of a whole Authorization header that verified → its person:
  /// a phone repeats the same header, so most requests skip parsing it.
  private let verifiedHeaders = Locked<[UInt128: String]>([:])
  /// How many verified headers are remembered: room for a few devices per
  /// person, so a full house of phones never verifies twice.
  private let headerLimit: Int
  private let decoy = Locked<String?>(nil)
  /// Accepted from loopback as any person's password: how the CLI on this
  /// machine goes through the daemon holding its store (LocalDaemon).
  let localToken: String?
  /// Opens one person's store and engine (`DaemonHost.open`).
  private let open: @Sendable (String) throws -> Person
  private let opened = Locked<[String: Person]>([:])
  /// When each open person was last asked for (`person(_:)`), by `now`;
  /// kept only with a `now` (a cluster worker closes idle guests by it),
  /// so a single daemon's reports do not pay for it.
  private let used = Locked<[String: Date]>([:])
  private let now: (@Sendable () -> Date)?
  /// Calls under way with each person (`using`), which `close` waits out.
  private let pins = Locked<[String: Int]>([:])
  /// Held while a person is being opened, so two requests never open one twice.
  private let opening = Locked<[@Sendable (Person) -> Void]>([])

  init(
    members: [Member], hasher: any PasswordHasher, throttle: LoginThrottle = LoginThrottle(), gate: VerificationGate = VerificationGate(),
    localToken: String? = nil, journalAnswersLater: Bool = false, rememberedHeaders: Int? = nil, now: (@Sendable () -> Date)? = nil,
    open: @escaping @Sendable (String) throws -> Person
  ) {
    self.now = now
    self.journalAnswersLater = journalAnswersLater
    headerLimit = max(1, rememberedHeaders ?? max(10_000, 4 * members.count))
    self.gate = gate
    self.localToken = localToken
    self.members = Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0) })
    self.hasher = hasher
    self.throttle = throttle
    self.open = open
  }

  /// Whether the shared journal answers an append from its own thread
  /// (group commit), so a report needs no worker thread while it waits.
  let journalAnswersLater: Bool

  /// The people opened in this process so far, by name.
  var byName: [String: Person] { opened.withLock { $0 } }

  /// How many people are open now.
  var openCount: Int { opened.withLock { $0.count } }

  /// `name`'s store and engine, opened now if this is the first time;
  /// nil when the config has no such person. Throws what opening threw
  /// (a store out of reach), and opens again at the next call.
  func person(_ name: String) throws -> Person? { try person(name, pin: false) }

  /// `body` with `name`'s store and engine (`person(_:)`), which are not
  /// closed while it runs: a worker letting the person go (`close`) leaves
  /// them open until the last such call returns, so a request on another
  /// thread never finds its person's store closed under it.
  func using<T>(_ name: String, _ body: (Person) throws -> T) throws -> T? {
    guard let person = try person(name, pin: true) else { return nil }
    defer {
      pins.withLock { pins in
        let left = (pins[name] ?? 1) - 1
        pins[name] = left > 0 ? left : nil
      }
    }
    return try body(person)
  }

  private func person(_ name: String, pin: Bool) throws -> Person? {
    // Looked up and pinned under one lock, which `close` takes to pick.
    let found = opened.withLock { opened -> Person? in
      guard let person = opened[name] else { return nil }
      if pin { pins.withLock { $0[name, default: 0] += 1 } }
      return person
    }
    if let found {
      noteUse(name)
      return found
    }
    guard members[name] != nil else { return nil }
    return try opening.withLock { whenOpened in
      let person: Person
      if let open = opened.withLock({ $0[name] }) {
        person = open
      } else {
        person = try open(name)
        whenOpened.forEach { $0(person) }
      }
      opened.withLock { opened in
        opened[name] = person
        if pin { pins.withLock { $0[name, default: 0] += 1 } }
      }
      noteUse(name)
      return person
    }
  }

  private func noteUse(_ name: String) {
    guard let now else { return }
    let at = now()
    used.withLock { $0[name] = at }
  }

  /// Closes the open people `which` picks that nobody asked for in the
  /// last `seconds` (a cluster worker's guests: people of partitions it
  /// does not hold, opened for its API); their names.
  @discardableResult
  func closeIdle(for seconds: TimeInterval, drainSeconds: TimeInterval, log: DaemonLog, _ which: (String) -> Bool) -> [String] {
    guard let now else { return [] }
    let cutoff = now().addingTimeInterval(-seconds)
    let idle = Set(used.withLock { used in used.filter { $0.value <= cutoff && which($0.key) }.map(\.key) })
    guard !idle.isEmpty else { return [] }
    return close(drainSeconds: drainSeconds, log: log) { name in
      // Asked for since the look above: kept.
      idle.contains(name) && used.withLock({ $0[name].map { $0 <= cutoff } ?? true })
    }.closed
  }

  /// Closes the people opened so far whose name `which` picks
  /// (`Person.close`); the next `person(_:)` for one opens them again.
  /// One in use (`using`) is left open and named in `busy`: close it later.
  @discardableResult
  func close(drainSeconds: TimeInterval, log: DaemonLog, _ which: (String) -> Bool) -> (closed: [String], busy: [String]) {
    let (closing, busy) = opening.withLock { _ in
      opened.withLock { opened in
        let inUse = pins.withLock { $0 }
        let picked = opened.filter { which($0.key) }
        let busy = picked.keys.filter { inUse[$0] != nil }
        let closing = picked.filter { inUse[$0.key] == nil }
        for name in closing.keys { opened[name] = nil }
        used.withLock { used in for name in closing.keys { used[name] = nil } }
        return (closing, busy)
      }
    }
    for person in closing.values { person.close(drainSeconds: drainSeconds, log: log) }
    return (closing.keys.sorted(), busy.sorted())
  }

  /// Calls `body` for every person opened so far and every one opened later.
  func whenOpened(_ body: @escaping @Sendable (Person) -> Void) {
    opening.withLock { whenOpened in
      whenOpened.append(body)
      byName.values.forEach(body)
    }
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
  func authenticate(_ request: HTTPRequest, now: Date) -> Result<Member, Refusal> {
    if let quick = authenticateQuickly(request) { return quick }
    guard let credentials = request.basicCredentials else { return .failure(.missing) }
    let result = verify(user: credentials.user, password: credentials.password, client: request.clientAddress, now: now)
    if case .success(let person) = result, let header = request.header("authorization") { remember(keyed.fingerprint(header), as: person.name) }
    return result
  }

  /// What `authenticate` answers when that takes no password check (no
  /// credentials, a header verified before, a device key, the local
  /// token); nil when it needs one, which is slow and goes through the gate.
  func authenticateQuickly(_ request: HTTPRequest) -> Result<Member, Refusal>? {
    guard let header = request.header("authorization") else { return .failure(.missing) }
    let headerPrint = keyed.fingerprint(header)
    if let name = verifiedHeaders.withLock({ $0[headerPrint] }), let person = members[name] { return .success(person) }
    guard let credentials = request.basicCredentials else { return .failure(.missing) }
    // A device's own token: a fast keyed hash, no Argon2id, no queue.
    if let person = members[credentials.user], !person.settings.deviceKeys.isEmpty {
      let keys = request.header("x-limit-d").flatMap { person.settings.deviceKeys[$0] }.map { [$0] } ?? Array(person.settings.deviceKeys.values)
      if keys.contains(where: { DeviceKey.verify(credentials.password, against: $0) }) {
        remember(headerPrint, as: person.name)
        return .success(person)
      }
    }
    if let localToken, Self.isLoopback(request.clientAddress), let person = members[credentials.user],
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
  func verify(user: String, password: String, client: String, now: Date) -> Result<Member, Refusal> {
    let pair = "pair:" + client + "|" + user
    let known = members[user] != nil
    let keys = known ? [pair] : [pair, "ip:" + client]
    if let wait = throttle.retryAfter(keys: keys, now: now) { return .failure(.slowed(retryAfter: wait)) }
    // The same work for a name that does not exist, so timing does not tell names apart.
    let hash = members[user]?.settings.password ?? decoyHash()
    guard let verified = gate.run({ hasher.verify(password, against: hash) }) else { return .failure(.busy) }
    guard let person = members[user], known, verified else {
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
      // Bounded: a flood of distinct valid headers makes room one header at
      // a time, so it costs the flooder re-verification, not every phone
      // at once (emptying it sent 10,000 phones back to Argon2id together).
      if verifiedHeaders[headerPrint] == nil, verifiedHeaders.count >= headerLimit { verifiedHeaders.remove(at: verifiedHeaders.startIndex) }
      verifiedHeaders[headerPrint] = name
    }
  }

  /// Verified headers remembered now.
  var rememberedHeaders: Int { verifiedHeaders.withLock { $0.count } }

  private func decoyHash() -> String {
    if let decoy = decoy.withLock({ $0 }) { return decoy }
    let made = (try? hasher.hash(UUID().uuidString)) ?? ""
    decoy.withLock { $0 = made }
    return made
  }
}
