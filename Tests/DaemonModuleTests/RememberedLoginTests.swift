import Composition
@testable import Daemon
import Foundation
import Gateway
import Locking
import Testing
import TestSupport

/// A login that verified is remembered, so a phone posting every few
/// seconds costs one password check per process. A full memory makes room
/// one header at a time: it never forgets every phone at once (which sent
/// a whole house of phones back to the password check together).
@Suite struct RememberedLoginTests {
  /// Counts the password checks it runs.
  final class CountingHasher: PasswordHasher, Sendable {
    let inner = FakePasswordHasher()
    let checks = Locked(0)
    func hash(_ password: String) throws -> String { try inner.hash(password) }
    func verify(_ password: String, against hash: String) -> Bool {
      checks.withLock { $0 += 1 }
      return inner.verify(password, against: hash)
    }
  }

  struct NotOpened: Error {}

  static func request(_ name: String) -> HTTPRequest {
    let basic = Data("\(name):\(name)-password".utf8).base64EncodedString()
    return HTTPRequest(method: "POST", path: "/owntracks", headers: ["Authorization": "Basic " + basic])
  }

  @Test func aFullMemoryForgetsOneLoginNotAll() throws {
    let hasher = CountingHasher()
    let names = (0..<5).map { "p\($0)" }
    let members = try names.map { Member(name: $0, settings: PersonSettings(password: try hasher.hash("\($0)-password"))) }
    let people = People(members: members, hasher: hasher, rememberedHeaders: 3) { _ in throw NotOpened() }
    let now = Date(timeIntervalSince1970: 1_780_000_000)
    for name in names {
      guard case .success(let member) = people.authenticate(Self.request(name), now: now) else { Issue.record("\(name) refused"); continue }
      #expect(member.name == name)
    }
    #expect(hasher.checks.withLock { $0 } == 5)
    #expect(people.rememberedHeaders == 3, "full: one made room for each of the last two")
    // The last one in is remembered: no second check.
    _ = people.authenticate(Self.request("p4"), now: now)
    #expect(hasher.checks.withLock { $0 } == 5)
  }

  @Test func everyoneInTheConfigFitsByDefault() throws {
    let hasher = CountingHasher()
    let members = try (0..<3).map { Member(name: "p\($0)", settings: PersonSettings(password: try hasher.hash("p\($0)-password"))) }
    let people = People(members: members, hasher: hasher) { _ in throw NotOpened() }
    for member in members { _ = people.authenticate(Self.request(member.name), now: Date()) }
    for member in members { _ = people.authenticate(Self.request(member.name), now: Date()) }
    #expect(hasher.checks.withLock { $0 } == 3, "each phone's header checked once")
    #expect(people.rememberedHeaders == 3)
  }
}
