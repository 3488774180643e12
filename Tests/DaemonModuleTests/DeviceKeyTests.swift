import Composition
@testable import Daemon
import Foundation
import Gateway
import Locking
import Sodium
import Testing
import TestSupport

/// A phone with its own token (`whilehere device add`) logs in with a fast
/// keyed hash: no Argon2id verification at all, so a restart storm of
/// phones costs microseconds each; a wrong token is a wrong login.
@Suite struct DeviceKeyTests {
  final class CountingHasher: PasswordHasher {
    let inner = Argon2idHasher(operations: 1, memoryBytes: 8192)
    let verifications = Locked(0)
    func hash(_ password: String) throws -> String { try inner.hash(password) }
    func verify(_ password: String, against hash: String) -> Bool {
      verifications.withLock { $0 += 1 }
      return inner.verify(password, against: hash)
    }
  }

  @Test func aDeviceTokenLogsInWithoutPasswordWork() throws {
    let issued = DeviceKey.issue()
    let counter = CountingHasher()
    let daemon = try DaemonHarness(bob: #", "deviceKeys": {"phone": "\#(issued.stored)"}"#, checking: counter)
    for _ in 0..<3 {
      let response = daemon.send("POST", "/owntracks", body: daemon.location(), as: "bob", password: issued.token, headers: ["X-Limit-D": "phone"])
      #expect(response.status == 200)
    }
    #expect(counter.verifications.withLock { $0 } == 0, "no Argon2id for a device token")
    let wrong = daemon.send("POST", "/owntracks", body: daemon.location(), as: "bob", password: DeviceKey.issue().token, headers: ["X-Limit-D": "phone"])
    #expect(wrong.status == 401)
    // The password still works (it is checked the slow way).
    #expect(daemon.send("POST", "/owntracks", body: daemon.location(), as: "bob", headers: ["X-Limit-D": "phone"]).status == 200)
  }

  @Test func storedFormsVerifyOnlyTheirToken() {
    let a = DeviceKey.issue()
    let b = DeviceKey.issue()
    #expect(a.token.count == 43)
    #expect(DeviceKey.verify(a.token, against: a.stored))
    #expect(!DeviceKey.verify(b.token, against: a.stored))
    #expect(!DeviceKey.verify(a.token, against: "$wh-device-1$zz$zz"))
    #expect(!a.stored.contains(a.token))
  }
}
