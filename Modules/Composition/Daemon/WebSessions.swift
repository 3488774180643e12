import Foundation
import Locking
import Sodium

/// The web page's signed-in sessions, in memory: a random cookie value per
/// sign-in, kept only as a keyed hash, each with its own CSRF token. A
/// restart signs everyone out (the page asks again); signing out ends the
/// session here, so a copied cookie stops working at once.
final class WebSessions: Sendable {
  struct Session: Sendable {
    let person: String
    let csrf: String
    let created: Date
    var lastSeen: Date
  }

  static let cookieName = "wh_session"
  /// Idle sessions end after a day, every session after a week.
  let idle: TimeInterval
  let lifetime: TimeInterval
  let limit: Int
  private let keyed = KeyedHash()
  private let sessions = Locked<[UInt128: Session]>([:])

  init(idle: TimeInterval = 86_400, lifetime: TimeInterval = 7 * 86_400, limit: Int = 10_000) {
    self.idle = idle
    self.lifetime = lifetime
    self.limit = limit
  }

  /// A new session for `person`: the cookie value and its CSRF token.
  func open(person: String, now: Date) -> (cookie: String, session: Session) {
    let cookie = Self.token()
    let session = Session(person: person, csrf: Self.token(), created: now, lastSeen: now)
    let print = keyed.fingerprint(cookie)
    sessions.withLock { sessions in
      if sessions.count >= limit {
        // Full (a flood of sign-ins): the longest idle go first.
        let oldest = sessions.sorted { $0.value.lastSeen < $1.value.lastSeen }.prefix(sessions.count - limit + 1)
        for (key, _) in oldest { sessions[key] = nil }
      }
      sessions[print] = session
    }
    return (cookie, session)
  }

  /// The live session a cookie value names, its idle time renewed.
  func find(_ cookie: String, now: Date) -> Session? {
    let print = keyed.fingerprint(cookie)
    return sessions.withLock { sessions in
      guard var session = sessions[print] else { return nil }
      guard now.timeIntervalSince(session.lastSeen) <= idle, now.timeIntervalSince(session.created) <= lifetime else {
        sessions[print] = nil
        return nil
      }
      session.lastSeen = now
      sessions[print] = session
      return session
    }
  }

  func close(_ cookie: String) {
    let print = keyed.fingerprint(cookie)
    _ = sessions.withLock { $0.removeValue(forKey: print) }
  }

  var count: Int { sessions.withLock { $0.count } }

  /// 32 random bytes, URL-safe base64. `SystemRandomNumberGenerator` reads
  /// the kernel's getrandom, which is fit for secrets.
  static func token() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// The session cookie's value in a `Cookie` header, if any.
  static func cookie(in header: String?) -> String? {
    guard let header else { return nil }
    for pair in header.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == cookieName {
        return parts[1].trimmingCharacters(in: .whitespaces)
      }
    }
    return nil
  }

  /// Compares without stopping at the first difference, so the time taken
  /// says nothing about how much of a guessed token was right.
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    guard x.count == y.count else { return false }
    var difference: UInt8 = 0
    for index in x.indices { difference |= x[index] ^ y[index] }
    return difference == 0
  }
}
