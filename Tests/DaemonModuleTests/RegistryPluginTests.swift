import Composition
@testable import Daemon
import Domain
import Foundation
import Gateway
import Locking
import Notifications
import Persistence
import Sodium
import Testing
import TestSupport

/// Plugging in means a registry entry: a store and a notification sink
/// defined here, in a test target, are chosen by name in the config and
/// serve whilehered's people with nothing else changed.
@Suite struct RegistryPluginTests {
  /// A store this test target adds: the in-memory one under another name, counting what it was asked to open.
  final class Opened: Sendable {
    let names = Locked<Int>(0)
  }

  @Test func aStoreAndASinkAddedInATestTargetServeTheDaemon() throws {
    let opened = Opened()
    let recording = RecordingNotificationSink()
    var registry = ProviderRegistry.standard
    registry.stores["scratch"] = ProviderRegistry.Factory(summary: "a test store", perPerson: .separate) { input in
      opened.names.withLock { $0 += 1 }
      return InMemoryOperationStore(replica: ReplicaID.random(), clock: input.clock)
    }
    registry.notify["recording"] = NotifyFactory(summary: "a test sink") { _ in (recording, nil) }
    let directory = TemporaryDirectory()
    let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
    let config = directory.write(
      "config.json",
      #"{"store": "scratch", "clock": "manual:2026-06-01T12:00:00Z", "notify": ["recording"], "server": {"listen": "127.0.0.1:0"}, "people": {"alice": {"password": "\#(try hasher.hash("secret"))"}}}"#)
    let runtime = try Runtime.boot(LaunchOptions(program: .headless, profile: nil, configPath: config, overrides: [:], environment: [:]), registry: registry)
    defer { runtime.shutdown() }
    var tuning = DaemonHost.Tuning()
    tuning.hasher = hasher
    let box = DirectHTTPServerSlot()
    tuning.makeServer = { options in box.keep(DirectHTTPServer(options: options)) }
    let host = try DaemonHost.start(runtime: runtime, log: DaemonLog { _ in }, tuning: tuning)
    defer { host.stop(drainSeconds: 1) }
    let server = try #require(box.server)
    let authorization = ["Authorization": "Basic " + Data("alice:secret".utf8).base64EncodedString()]
    let made = server.send(
      HTTPRequest(method: "POST", path: "/api/v1/tasks", headers: authorization, body: Data(#"{"title":"Buy milk","locations":[{"at":"60.1699,24.9384"}]}"#.utf8)))
    #expect(made?.status == 201)
    let report = #"{"_type":"location","lat":60.1699,"lon":24.9384,"tst":1780315200,"acc":5}"#
    for _ in 0..<3 { _ = server.send(HTTPRequest(method: "POST", path: "/owntracks", headers: authorization, body: Data(report.utf8))) }
    #expect(recording.notifications.map(\.title) == ["Buy milk"], "the test's sink carried the reminder")
    #expect(opened.names.withLock { $0 } == 2, "the test's store served the daemon's journal and alice's own")
  }
}
