import CLI
import Composition
import CurlHTTP
@testable import Daemon
import Domain
import Foundation
import Gateway
import Persistence
import RemoteStore
import Sodium
import Testing
import TestSupport

/// `remote:URL` / `whilehere --server URL`: a person's store held by a
/// running daemon, over its API. It passes the same suite as every store,
/// and the CLI works through it unchanged.
@Suite(.serialized) struct RemoteStoreTests {
  final class Server {
    let directory = TemporaryDirectory()
    let runtime: Runtime
    let host: DaemonHost
    let base: URL
    static let people = (0..<13).map { "p\($0)" }

    init() throws {
      let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
      let people = try Self.people.map { "\"\($0)\": {\"password\": \"\(try hasher.hash("secret-\($0)"))\"}" }.joined(separator: ", ")
      let config = directory.write(
        "config.json",
        #"{"store": "memory", "notify": [], "server": {"listen": "127.0.0.1:0"}, "people": {\#(people)}}"#)
      runtime = try Runtime.bootHashing(with: hasher, config: config)
      host = try DaemonHost.start(runtime: runtime, log: DaemonLog { _ in })
      base = URL(string: "http://127.0.0.1:\(host.port)")!
    }

    deinit {
      host.stop(drainSeconds: 1)
      runtime.shutdown()
    }

    func store(_ person: String) throws -> RemoteOperationStore {
      try RemoteOperationStore(url: base, user: person, password: "secret-\(person)", client: CurlHTTPClient())
    }
  }

  @Test func passesTheSharedStoreSuite() throws {
    let server = try Server()
    var next = 0
    try StoreConformance.verify(
      make: {
        defer { next += 1 }
        return try server.store(Server.people[next])
      },
      reopen: { store in
        store.close()
        return try RemoteOperationStore(url: server.base, user: Server.people[next - 1], password: "secret-\(Server.people[next - 1])", client: CurlHTTPClient())
      })
  }

  @Test func theCLIWorksThroughTheDaemonAndThePhoneSeesTheChange() throws {
    let server = try Server()
    let output = BufferedOutput(isTerminal: false)
    let environment = ["HOME": server.directory.path, "WHILEHERE_USER": "p0", "WHILEHERE_PASSWORD": "secret-p0"]
    let added = CLI.run(
      arguments: ["--server", server.base.absoluteString, "task", "add", "Buy milk", "--at", "60.1699,24.9384", "--radius", "150"],
      environment: environment, output: output)
    #expect(added == 0, "\(output.stderr)")
    // The daemon holds it: the task is in p0's store there, not anyone else's.
    #expect(server.host.people.byName["p0"]?.engine.tasks.list().map(\.title) == ["Buy milk"])
    #expect(server.host.people.byName["p1"]?.engine.tasks.list().isEmpty == true)
    let listed = BufferedOutput(isTerminal: false)
    #expect(CLI.run(arguments: ["--server", server.base.absoluteString, "task", "list"], environment: environment, output: listed) == 0)
    #expect(listed.stdout.contains("Buy milk"))
    let done = BufferedOutput(isTerminal: false)
    #expect(CLI.run(arguments: ["--server", server.base.absoluteString, "task", "done", "Buy milk"], environment: environment, output: done) == 0)
    #expect(server.host.people.byName["p0"]?.engine.tasks.list(.done).count == 1)
  }

  @Test func wrongCredentialsAndBadBatchesAreRefusedWithTheServersReason() throws {
    let server = try Server()
    do {
      _ = try RemoteOperationStore(url: server.base, user: "p0", password: "wrong", client: CurlHTTPClient())
      Issue.record("logged in with a wrong password")
    } catch {
      #expect("\(error)".contains("401"))
    }
    let client = TestHTTPClient()
    let both = try client.send("POST", server.base.absoluteString + "/api/v1/operations", body: Data(#"{"append":[],"merge":[]}"#.utf8), user: "p0", password: "secret-p0")
    #expect(both.status == 400)
    let junk = try client.send("POST", server.base.absoluteString + "/api/v1/operations", body: Data(#"{"append":[{"t":"x","op":"put"}]}"#.utf8), user: "p0", password: "secret-p0")
    #expect(junk.status == 400)
    #expect(try server.host.people.byName["p0"]!.store.operations(since: nil).isEmpty)
  }
}

@Suite struct DaemonRestartTests {
  /// After a restart the plan comes back from the journalled fix, without
  /// waiting for the phone, and the visit's reminder is not shown again.
  @Test func theLastFixSurvivesARestartAndFiresNothingTwice() throws {
    let directory = TemporaryDirectory()
    let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
    let config = directory.write(
      "config.json",
      #"{"store": "file:\#(directory.file("store"))", "notify": ["jsonl:\#(directory.file("r.jsonl"))"], "server": {"listen": "127.0.0.1:0"}, "people": {"alice": {"password": "\#(try hasher.hash("alice-secret"))"}}}"#)
    func boot() throws -> (Runtime, DaemonHost) {
      let runtime = try Runtime.bootHashing(with: hasher, config: config)
      return (runtime, try DaemonHost.start(runtime: runtime, log: DaemonLog { _ in }))
    }
    let client = TestHTTPClient()
    var (runtime, host) = try boot()
    let base = "http://127.0.0.1:\(host.port)"
    #expect(try client.send("POST", base + "/api/v1/tasks", body: Data(#"{"title":"Buy milk","locations":[{"at":"60.1699,24.9384","radius":150}]}"#.utf8), user: "alice", password: "alice-secret").status == 201)
    let fix = #"{"_type":"location","lat":60.1700,"lon":24.9385,"acc":10,"tst":\#(Int(Date().timeIntervalSince1970))}"#
    #expect(try client.send("POST", base + "/owntracks", body: Data(fix.utf8), user: "alice", password: "alice-secret").status == 200)
    host.stop(drainSeconds: 1)
    runtime.shutdown()
    (runtime, host) = try boot()
    defer {
      host.stop(drainSeconds: 1)
      runtime.shutdown()
    }
    let plan = try client.send("GET", "http://127.0.0.1:\(host.port)/api/v1/plan", user: "alice", password: "alice-secret")
    #expect(((try plan.json() as? [String: Any])?["regions"] as? [Any])?.isEmpty == false, "the plan is back before any report")
    _ = try client.send("POST", "http://127.0.0.1:\(host.port)/owntracks", body: Data(fix.utf8), user: "alice", password: "alice-secret")
    let lines = try String(contentsOfFile: directory.file("r.jsonl"), encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 1, "one reminder for one visit, across the restart")
    // The page's history still lists the reminder fired before the restart.
    let events = try client.send("GET", "http://127.0.0.1:\(host.port)/api/v1/events", user: "alice", password: "alice-secret")
    let kinds = (try events.json() as? [[String: Any]])?.filter { $0["kind"] as? String == "reminder" }
    #expect(kinds?.count == 1 && (kinds?.first?["detail"] as? String)?.contains("Buy milk") == true, "\(String(describing: kinds))")
  }
}
