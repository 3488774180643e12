import Composition
@testable import Daemon
import Domain
import Foundation
import Gateway
import Geofencing
import Locking
import Notifications
import Persistence
import Sodium
import Testing
import TestSupport

/// Plugging in means a registry entry: a store, a notification sink, an
/// HTTP server, a password hasher, a signer, an MQTT client and a
/// location source defined here, in a test target, are chosen by name in
/// the config and serve whilehered's people with nothing else changed.
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
    let box = DirectHTTPServerSlot()
    registry.servers["direct"] = PortFactory(summary: "requests handed to the handler") { options in box.keep(DirectHTTPServer(options: options)) }
    let runtime = try Runtime.bootHashing(with: hasher, config: config, registry: registry, overrides: ["server.http": "direct"])
    defer { runtime.shutdown() }
    let host = try DaemonHost.start(runtime: runtime, log: DaemonLog { _ in })
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

  /// A source that hands over what the test gives it.
  final class ScriptedSource: LocationSource {
    let name = "scripted"
    let deliver = Locked<(@Sendable (PhoneReport) -> Void)?>(nil)
    func start(_ deliver: @escaping @Sendable (PhoneReport) -> Void) throws { self.deliver.withLock { $0 = deliver } }
    func stop() { deliver.withLock { $0 = nil } }
    func send(_ report: PhoneReport) { deliver.withLock { $0 }?(report) }
  }

  /// Counts what it signs; a real signer does the work.
  final class CountingSigner: TokenSigner {
    let inner: SodiumTokenSigner
    let signed = Locked(0)
    init(key: Data) throws { inner = try SodiumTokenSigner(key: key) }
    func sign(_ payload: Data) -> String {
      signed.withLock { $0 += 1 }
      return inner.sign(payload)
    }
    func open(_ token: String) -> Data? { inner.open(token) }
  }

  @Test func aSignerAndALocationSourceAddedInATestTargetServeTheDaemon() throws {
    let source = ScriptedSource()
    let signers = Locked<[CountingSigner]>([])
    let recording = RecordingNotificationSink()
    let linkMakers = Locked<[any ActionLinkMaker]>([])
    var registry = ProviderRegistry.standard
    registry.notify["recording"] = NotifyFactory(summary: "a test sink") { input in
      linkMakers.withLock { $0.append(input.links) }
      return (recording, nil)
    }
    registry.sources["scripted"] = PortFactory(summary: "a test source") { input in
      #expect(input.host == "here" && input.port == 1234)
      return source
    }
    registry.signers["counting"] = SignerFactory(summary: "a test signer", keyLength: 32, generateKey: { Data(repeating: 7, count: 32) }) { key in
      let signer = try CountingSigner(key: key)
      signers.withLock { $0.append(signer) }
      return signer
    }
    let directory = TemporaryDirectory()
    let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
    let config = directory.write(
      "config.json",
      #"{"store": "memory", "clock": "manual:2026-06-01T12:00:00Z", "notify": ["recording"], "server": {"listen": "127.0.0.1:0", "signer": "counting"}, "gpsd": {"host": "here", "port": 1234, "person": "alice", "source": "scripted"}, "people": {"alice": {"password": "\#(try hasher.hash("secret"))"}}}"#)
    let (inProcess, overrides) = registry.inProcess(server: DirectHTTPServerSlot(), hasher: hasher)
    let runtime = try Runtime.boot(
      LaunchOptions(program: .headless, profile: nil, configPath: config, overrides: overrides, environment: [:]), registry: inProcess)
    defer { runtime.shutdown() }
    let host = try DaemonHost.start(runtime: runtime, log: DaemonLog { _ in })
    defer { host.stop(drainSeconds: 1) }
    try host.seed([.put(.task(ReminderTask(id: TaskID("t1"), title: "Buy milk", locations: [
      TaskLocation(id: LocationID("l1"), target: .coordinate(try Coordinate(latitude: 60.1699, longitude: 24.9384)), radius: 150)
    ], createdAt: runtime.clock.now())))], for: "alice")
    let at = runtime.clock.now()
    for _ in 0..<3 { source.send(.location(PhoneFix(coordinate: try Coordinate(latitude: 60.1699, longitude: 24.9384), accuracy: 5, at: at))) }
    #expect(recording.notifications.map(\.title) == ["Buy milk"], "the test's source carried the fix")
    #expect(signers.withLock { $0.count } == 1, "the test's signer was chosen")
    let reminder = try #require(recording.notifications.first)
    let links = try #require(linkMakers.withLock { $0.first }).links(for: reminder)
    #expect(links.count == 2, "Mark Done and Remind Later")
    #expect(signers.withLock { $0[0].signed.withLock { $0 } } == 2, "each answer link was signed by the test's signer")
  }

  @Test func anUnknownPortNameStopsTheDaemonNamingTheKnownOnes() throws {
    let directory = TemporaryDirectory()
    let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
    let config = directory.write(
      "config.json",
      #"{"store": "memory", "server": {"listen": "127.0.0.1:0", "http": "nginx"}, "people": {"alice": {"password": "\#(try hasher.hash("secret"))"}}}"#)
    let runtime = try Runtime.bootHashing(with: hasher, config: config)
    defer { runtime.shutdown() }
    #expect(runtime.registry.daemonPortProblems(runtime.config.settings).count == 1)
    do {
      let host = try DaemonHost.start(runtime: runtime, log: DaemonLog { _ in })
      host.stop(drainSeconds: 0)
      Issue.record("a server named nginx was accepted")
    } catch {
      #expect("\(error)".contains("nginx") && "\(error)".contains("microhttpd"), "\(error)")
    }
  }
}
