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

/// whilehered with a person's store refusing writes for a moment (a
/// store on a network whose server is away): the reminder is shown, the
/// daemon's log says the visit could not be saved, the save is made at
/// the person's next report, and after a restart the same visit is not
/// reminded again.
@Suite struct UnsavedVisitDaemonTests {
  /// Stores that outlive one daemon (a test's stand-in for a server's),
  /// each handed out wrapped so the test can make alice's refuse.
  final class Stores: Sendable {
    let bases = Locked<[String: InMemoryOperationStore]>([:])
    let wrapped = Locked<[String: FaultyOperationStore]>([:])
    func open(_ name: String, clock: any WallClock) -> FaultyOperationStore {
      let base = bases.withLock { bases in
        if let kept = bases[name] { return kept }
        let made = InMemoryOperationStore(replica: ReplicaID.random(), clock: clock)
        bases[name] = made
        return made
      }
      let faulty = FaultyOperationStore(base, closesBase: false)
      wrapped.withLock { $0[name] = faulty }
      return faulty
    }
  }

  static func start(
    _ directory: TemporaryDirectory, stores: Stores, sink: RecordingNotificationSink, log: @escaping @Sendable (String) -> Void,
    run: (DirectHTTPServer, Runtime) throws -> Void
  ) throws {
    var registry = ProviderRegistry.standard
    registry.stores["faulty"] = ProviderRegistry.Factory(
      summary: "a store that refuses what the test says", perPerson: .argument { argument, person in argument + "/" + person }
    ) { input in stores.open(input.argument ?? "journal", clock: input.clock) }
    registry.notify["recording"] = NotifyFactory(summary: "a test sink") { _ in (sink, nil) }
    let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
    let config = directory.write(
      "config.json",
      #"{"store": "faulty:shared", "clock": "manual:2026-06-01T12:00:00Z", "notify": ["recording"], "server": {"listen": "127.0.0.1:0", "http": "direct"}, "people": {"alice": {"password": "\#(try hasher.hash("secret"))"}}}"#)
    let box = DirectHTTPServerSlot()
    registry.servers["direct"] = PortFactory(summary: "requests handed to the handler") { options in box.keep(DirectHTTPServer(options: options)) }
    let runtime = try Runtime.bootHashing(with: hasher, config: config, registry: registry)
    defer { runtime.shutdown() }
    let host = try DaemonHost.start(runtime: runtime, log: DaemonLog(write: log))
    defer { host.stop(drainSeconds: 1) }
    try run(try #require(box.server), runtime)
  }

  static func post(_ server: DirectHTTPServer, at runtime: Runtime) -> String {
    let tst = Int(runtime.clock.now().timeIntervalSince1970)
    let report = #"{"_type":"location","lat":60.1699,"lon":24.9384,"tst":\#(tst),"acc":5}"#
    let answer = server.send(HTTPRequest(method: "POST", path: "/owntracks", headers: ReminderOutboxDaemonTests.authorization, body: Data(report.utf8)))
    return "\(answer?.status ?? 0) \(String(decoding: answer?.body ?? Data(), as: UTF8.self))"
  }

  @Test func aVisitWhoseSaveWasRefusedIsSavedAtTheNextReportAndNotRemindedAfterARestart() throws {
    let directory = TemporaryDirectory()
    let stores = Stores()
    let lines = Locked<[String]>([])
    let first = RecordingNotificationSink()
    try Self.start(directory, stores: stores, sink: first, log: { line in lines.withLock { $0.append(line) } }) { server, runtime in
      let made = server.send(
        HTTPRequest(
          method: "POST", path: "/api/v1/tasks", headers: ReminderOutboxDaemonTests.authorization,
          body: Data(#"{"title":"Buy milk","locations":[{"at":"60.1699,24.9384"}]}"#.utf8)))
      #expect(made?.status == 201)
      let alice = try #require(stores.wrapped.withLock { $0["shared/alice"] })
      alice.refuse { operations in
        operations.contains { if case .put(.setting(let key, _)) = $0 { key == "arrival.visits" } else { false } }
      }
      #expect(Self.post(server, at: runtime).hasPrefix("200 "))
      #expect(first.notifications.map(\.title) == ["Buy milk"], "shown all the same")
      #expect(alice.refused == 1)
      let said = lines.withLock { $0 }.filter { $0.hasPrefix("whilehered: degraded ") && $0.contains("person=alice") }
      #expect(said.contains { $0.contains("could not save the visits reminded") }, "\(said)")
      alice.refuse(nil)
      (runtime.clock as? ManualClock)?.advance(by: 60)
      #expect(Self.post(server, at: runtime).hasPrefix("200 "))
      #expect(alice.state().settings["arrival.visits"]?.contains("visiting") == true, "saved at the next report")
    }
    let second = RecordingNotificationSink()
    try Self.start(directory, stores: stores, sink: second, log: { _ in }) { server, runtime in
      (runtime.clock as? ManualClock)?.advance(by: 120)
      let answer = Self.post(server, at: runtime)
      #expect(answer.hasPrefix("200 "), "\(answer)")
      #expect(second.notifications.isEmpty, "the same visit, reminded before the restart: \(second.notifications.map(\.title))")
    }
  }
}
