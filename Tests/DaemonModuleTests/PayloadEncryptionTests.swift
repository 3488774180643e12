@testable import Daemon
import Foundation
import Gateway
import Locking
import Sodium
import Testing
import TestSupport

/// OwnTracks payload encryption (the app's "encryption key",
/// `people.NAME.encryptionKey`): sealed reports are opened, answers to
/// them sealed; a person without the key, or with another, gets a 400
/// saying which.
@Suite struct PayloadEncryptionTests {
  /// A message the OwnTracks Android app sealed with the key "123": the
  /// known answer in its own test suite (owntracks/android,
  /// EncryptionProviderTest), a location at 50.1182933, -5.5407733, ±5 m.
  static let appSealed =
    "aUiEKyGnskRz383od0mu4uqxTIxeZUddBVxKEmsdv1FFSH2y0NwqLP1tTqOmxaFhGv0bNX1DT7o81FW9Yaxpla6Byvr6CZV3t2skQv8nlxiIv1ZpQWM1bqHE0JFHwD3/yRx9bLHRF3j67kWcO6o2D/xn4ma8Fd4u86NPobFkRIzIhJljphEZyDCGugp7H3FkydGvgEkljb1/P1K91E/ij+m73wFplvTQm8ba5eWSFlQHDdY2B7QwbVPrKarHJLrm1+Y29+HD4Wg6TNhBJZLvdsmek6AcZLB+bq7Q84tUWoLrKp3aiyJZZX70q4HbVI3skkmDWMuMP2cDmsY9bvBjh1ZWAGlOq5VS1dWIlu6OWgWN9VdDbLzP+s2ykeFXrGs="

  @Test func opensWhatTheAppSealed() throws {
    let plain = try #require(SecretBox(secret: "123").open(Self.appSealed))
    let object = try #require(try JSONSerialization.jsonObject(with: plain) as? [String: Any])
    #expect(object["_type"] as? String == "location")
    #expect((object["lat"] as? Double).map { abs($0 - 50.1182933) < 1e-6 } == true)
    #expect((object["lon"] as? Double).map { abs($0 + 5.5407733) < 1e-6 } == true)
    #expect(object["acc"] as? Int == 5)
    #expect(SecretBox(secret: "124").open(Self.appSealed) == nil, "another key")
  }

  @Test func sealsWhatOpensOnlyWithTheSameKeyUnchanged() throws {
    let box = SecretBox(secret: "a secret")
    let message = Data(#"[{"_type":"cmd","action":"reportLocation"}]"#.utf8)
    let sealed = box.seal(message)
    #expect(box.open(sealed) == message)
    #expect(box.seal(message) != sealed, "a fresh nonce each time")
    #expect(SecretBox(secret: "a secret!").open(sealed) == nil)
    var bytes = try #require(Data(base64Encoded: sealed))
    bytes[bytes.count - 1] ^= 1
    #expect(box.open(bytes.base64EncodedString()) == nil, "a changed byte")
    #expect(box.open("not base64 at all!") == nil)
    #expect(box.open(Data(count: 39).base64EncodedString()) == nil, "shorter than a nonce and a tag")
    #expect(box.open(box.seal(Data())) == Data(), "an empty message")
    // The apps use a key's first 32 bytes.
    let long = String(repeating: "k", count: 32)
    #expect(SecretBox(secret: long + "ignored").open(SecretBox(secret: long).seal(message)) == message)
  }

  @Test func aSealedReportIsOpenedAndItsAnswerSealed() throws {
    let daemon = try DaemonHarness(bob: #", "encryptionKey": "bob's key""#)
    _ = daemon.addTask("Buy milk", as: "bob", north: 3000)
    let box = SecretBox(secret: "bob's key")
    let sealed = #"{"_type":"encrypted","data":"\#(box.seal(Data(daemon.location().utf8)))"}"#
    let response = daemon.send("POST", "/owntracks", body: sealed, as: "bob", headers: ["X-Limit-D": "phone"])
    #expect(response.status == 200)
    let envelope = try #require(daemon.json(response) as? [String: Any])
    #expect(envelope["_type"] as? String == "encrypted")
    let data = try #require(envelope["data"] as? String)
    let answer = try #require(box.open(data))
    let commands = try #require(try JSONSerialization.jsonObject(with: answer) as? [[String: Any]])
    #expect(commands.compactMap { $0["action"] as? String } == ["clearWaypoints", "setWaypoints"], "the plan's regions, sealed")
    // The same person's plain reports still work, answered plainly.
    let plain = daemon.send("POST", "/owntracks", body: daemon.location(), as: "bob", headers: ["X-Limit-D": "phone"])
    #expect(plain.status == 200)
    #expect(daemon.json(plain) is [Any])
  }

  @Test func aSealedReportWithoutTheKeyOrWithAnotherIsRefusedSayingWhich() throws {
    let daemon = try DaemonHarness(bob: #", "encryptionKey": "bob's key""#)
    let before = try daemon.store("alice").operations(since: nil).count
    let other = #"{"_type":"encrypted","data":"\#(SecretBox(secret: "other").seal(Data(daemon.location().utf8)))"}"#
    let noKey = daemon.send("POST", "/owntracks", body: other, as: "alice")
    #expect(noKey.status == 400)
    #expect(String(decoding: noKey.body, as: UTF8.self).contains("people.alice.encryptionKey"))
    let wrong = daemon.send("POST", "/owntracks", body: other, as: "bob", headers: ["X-Limit-D": "phone"])
    #expect(wrong.status == 400)
    #expect(String(decoding: wrong.body, as: UTF8.self).contains("differs"))
    #expect(try daemon.store("alice").operations(since: nil).count == before)
  }

  @Test func overMQTTASealedReportIsOpenedAndCommandsGoBackSealed() throws {
    let hub = InMemoryBroker()
    let daemon = try DaemonHarness(broker: hub, bob: #", "encryptionKey": "bob's key""#)
    let box = SecretBox(secret: "bob's key")
    let received = Locked<[Data]>([])
    let phone = hub.client()
    try phone.connect(subscriptions: ["owntracks/bob/phone/cmd"]) { _, payload in received.withLock { $0.append(payload) } }
    _ = daemon.addTask("Buy milk", as: "bob", north: 3000)
    let sealed = #"{"_type":"encrypted","data":"\#(box.seal(Data(daemon.location().utf8)))"}"#
    try phone.publish(topic: "owntracks/bob/phone", payload: Data(sealed.utf8))
    hub.settle()
    hub.settle()
    let actions = try received.withLock { $0 }.map { payload -> String? in
      let envelope = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
      #expect(envelope["_type"] as? String == "encrypted", "the broker carries nothing it could read")
      let data = try #require(envelope["data"] as? String)
      let opened = try #require(box.open(data))
      return (try JSONSerialization.jsonObject(with: opened) as? [String: Any])?["action"] as? String
    }
    #expect(actions == ["clearWaypoints", "setWaypoints"])
  }
}
