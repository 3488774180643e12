import Composition
import Domain
@testable import Daemon
import Foundation
import Gateway
import Persistence
import Sodium
import TestSupport

/// The daemon in-process: real routing, stores, engines and sinks, a
/// manual clock, cheap Argon2id, and requests handed straight to the
/// handler (no sockets).
/// Its state is set once at start (the handler and stores are thread-safe), so tests may send from several threads.
final class DaemonHarness: @unchecked Sendable {
  static let start = "2026-06-01T12:00:00Z"
  static let passwords = ["alice": "alice-secret", "bob": "bob-secret-2"]
  let directory: TemporaryDirectory
  let runtime: Runtime
  let host: DaemonHost
  let server: DirectHTTPServer
  var reminders: String { directory.file("reminders.jsonl") }

  init(
    extra: String = "", broker: InMemoryBroker? = nil, notify: [String] = [], bob: String = "", store: String = "memory",
    directory: TemporaryDirectory = TemporaryDirectory(), withoutBob: Bool = false, checking: (any PasswordHasher)? = nil,
    registry standard: ProviderRegistry = .standard, tune: (inout DaemonHost.Tuning) -> Void = { _ in }
  ) throws {
    self.directory = directory
    let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
    let alice = try hasher.hash(Self.passwords["alice"]!)
    let bobHash = try hasher.hash(Self.passwords["bob"]!)
    let config = directory.write(
      "config.json",
      """
      {"store": "\(store)", "clock": "manual:\(Self.start)", "ids": "sequential",
       "server": {"listen": "127.0.0.1:0", "url": "https://wh.example.org"},
       "notify": \((try? String(decoding: JSONSerialization.data(withJSONObject: ["jsonl:" + directory.file("reminders.jsonl")] + notify), as: UTF8.self)) ?? "[]"),
       "people": {"alice": {"password": "\(alice)"}\(withoutBob ? "" : #", "bob": {"password": "\#(bobHash)", "devices": ["phone"]\#(bob)}"#)}\(extra)}
      """)
    // The ports a test swaps are registry entries chosen by settings, as a deployment chooses them.
    let made = DirectHTTPServerSlot()
    var (registry, overrides) = standard.inProcess(server: made, hasher: checking ?? hasher)
    if let broker {
      registry.brokers["memory"] = PortFactory(summary: "an in-memory broker") { _ in broker.client() }
      overrides["mqtt.host"] = "in-memory"
      overrides["mqtt.client"] = "memory"
    }
    runtime = try Runtime.boot(
      LaunchOptions(program: .headless, profile: nil, configPath: config, overrides: overrides, environment: [:]), registry: registry)
    var tuning = DaemonHost.Tuning()
    tuning.retryDelay = 0
    tune(&tuning)
    host = try DaemonHost.start(runtime: runtime, log: DaemonLog { _ in }, tuning: tuning)
    server = made.server!
  }

  deinit {
    host.stop(drainSeconds: 1)
    runtime.shutdown()
  }


  var clock: ManualClockControl { ManualClockControl(runtime: runtime) }

  func store(_ person: String) -> any OperationStore { host.people.byName[person]!.store }

  func send(
    _ method: String, _ path: String, body: String = "", as user: String? = "alice", password: String? = nil, headers: [String: String] = [:],
    query: [String: String] = [:], client: String = "127.0.0.1"
  ) -> HTTPResponse {
    var all = headers
    if let user {
      let secret = password ?? Self.passwords[user] ?? "x"
      all["Authorization"] = "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString()
    }
    return server.send(HTTPRequest(method: method, path: path, query: query, headers: all, body: Data(body.utf8), clientAddress: client))
      ?? HTTPResponse(status: 0)
  }

  /// An OwnTracks location `north` metres from the test point, taken now.
  func location(north: Double = 0, accuracy: Double = 10) -> String {
    let latitude = 60.1699 + north / 111_195
    let tst = Int(runtime.clock.now().timeIntervalSince1970)
    return #"{"_type":"location","lat":\#(latitude),"lon":24.9384,"tst":\#(tst),"acc":\#(accuracy)}"#
  }

  func json(_ response: HTTPResponse) -> Any? { try? JSONSerialization.jsonObject(with: response.body) }

  /// Adds a task through the API and returns its id.
  func addTask(_ title: String, as user: String = "alice", north: Double = 0, radius: Double = 150) -> String? {
    let latitude = 60.1699 + north / 111_195
    let response = send("POST", "/api/v1/tasks", body: #"{"title":"\#(title)","locations":[{"at":"\#(latitude),24.9384","radius":\#(radius)}]}"#, as: user)
    return (json(response) as? [String: Any])?["id"] as? String
  }

  /// The action links the jsonl sink recorded, newest last.
  func links() -> [(label: String, url: String)] {
    let text = (try? String(contentsOfFile: reminders, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").flatMap { line -> [(String, String)] in
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let actions = object["actions"] as? [[String: Any]]
      else { return [] }
      return actions.compactMap { action in (action["label"] as? String).flatMap { label in (action["url"] as? String).map { (label, $0) } } }
    }
  }

  /// `https://wh.example.org/actions/TOKEN` → `/actions/TOKEN`.
  static func path(of url: String) -> String { String(url.dropFirst("https://wh.example.org".count)) }
}

/// Moves the runtime's manual clock.
struct ManualClockControl {
  let runtime: Runtime
  func advance(by seconds: TimeInterval) {
    (runtime.clock as? ManualClock)?.advance(by: seconds)
  }
}
