import Daemon
import Dispatch
import Foundation
import Gateway
import Locking
import Sodium
import Testing

/// A restart storm, or a flood of wrong passwords, cannot run unbounded
/// Argon2id work: a few verify at once, a few more wait, the rest are told
/// to come back (503, Retry-After); /health and phones already verified are
/// never held up.
@Suite struct VerificationStormTests {
  /// Argon2id that waits until the test lets it finish, and counts how many run at once.
  final class HeldHasher: PasswordHasher, Sendable {
    let inner = Argon2idHasher(operations: 1, memoryBytes: 8192)
    let release = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)
    let holding = Locked(false)
    let atOnce = Locked((now: 0, most: 0))
    func hash(_ password: String) throws -> String { try inner.hash(password) }
    func verify(_ password: String, against hash: String) -> Bool {
      atOnce.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
      defer { atOnce.withLock { $0.now -= 1 } }
      if holding.withLock({ $0 }) {
        entered.signal()
        release.wait()
      }
      return inner.verify(password, against: hash)
    }
    func hold() { holding.withLock { $0 = true } }
    func letGo(_ count: Int) {
      holding.withLock { $0 = false }
      for _ in 0..<count { release.signal() }
    }
  }

  /// The statuses background logins got.
  final class Statuses: Sendable {
    private let values = Locked<[Int]>([])
    func add(_ status: Int) { values.withLock { $0.append(status) } }
    var all: [Int] { values.withLock { $0 } }
  }

  /// Logs in from a background thread; the status lands in `statuses`.
  func loginInBackground(_ daemon: DaemonHarness, as user: String, group: DispatchGroup, statuses: Statuses) {
    DispatchQueue.global().async(group: group) {
      statuses.add(daemon.send("GET", "/api/v1/tasks", as: user).status)
    }
  }

  @Test func beyondTheQueueLoginsAreToldToComeBackAndNothingElseWaits() throws {
    let held = HeldHasher()
    let daemon = try DaemonHarness(checking: held) { tuning in
      tuning.verifyingAtOnce = 1
      tuning.verificationQueue = 0
    }
    // Bob logs in before the storm: his phone must not wait behind it.
    #expect(daemon.send("GET", "/api/v1/tasks", as: "bob").status == 200)
    held.hold()
    let group = DispatchGroup()
    let statuses = Statuses()
    loginInBackground(daemon, as: "alice", group: group, statuses: statuses)
    held.entered.wait()
    let refused = daemon.send("GET", "/api/v1/tasks", as: "bob", password: "not-bobs")
    #expect(refused.status == 503, "a login beyond the limit is told to come back")
    #expect(refused.headers["Retry-After"] == "1")
    #expect(daemon.send("GET", "/health", as: nil).status == 200, "health never waits for password work")
    #expect(daemon.send("GET", "/api/v1/tasks", as: "bob").status == 200, "a phone that verified before never waits")
    held.letGo(1)
    group.wait()
    #expect(statuses.all == [200], "the running one is served")
  }

  @Test func queuedLoginsWaitTheirTurnAndAreServed() throws {
    let held = HeldHasher()
    let daemon = try DaemonHarness(checking: held) { tuning in
      tuning.verifyingAtOnce = 1
      tuning.verificationQueue = 4
    }
    held.hold()
    let group = DispatchGroup()
    let statuses = Statuses()
    loginInBackground(daemon, as: "alice", group: group, statuses: statuses)
    loginInBackground(daemon, as: "bob", group: group, statuses: statuses)
    held.entered.wait()
    held.letGo(2)
    group.wait()
    #expect(statuses.all == [200, 200])
    #expect(held.atOnce.withLock { $0.most } == 1, "one verification at a time, as configured")
  }
}
