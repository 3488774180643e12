import Foundation
import Gateway
import MicroHTTP
import Sodium
import Testing
import TestSupport

/// The real whilehered binary, driven as the OwnTracks app, ntfy and a
/// webhook receiver see it: a local HTTP server stands in for ntfy and the
/// webhook and checks the exact requests, and pressing a button's URL marks
/// the task done.
@Suite(.serialized) struct DaemonEndToEndTests {
  let client = TestHTTPClient(timeout: 10)

  @Test func aLocationReachesNtfyAndTheWebhookAndTheButtonMarksTheTaskDone() throws {
    let directory = TemporaryDirectory()
    let receiver = RecordingHTTPHandler { _ in .json(200, Data("{}".utf8)) }
    let peer = MicroHTTPServer(options: HTTPServerOptions(port: 0))
    let peerPort = try peer.start(receiver)
    defer { peer.stop() }
    let hash = try Argon2idHasher(operations: 1, memoryBytes: 8192).hash("alice-secret")
    let config = directory.write(
      "config.json",
      """
      {"store": "file:\(directory.file("store"))", "server": {"listen": "127.0.0.1:0"}, "notify": ["console"],
       "people": {"alice": {"password": "\(hash)", "webhookSecret": "s3cret",
         "notify": ["ntfy:http://127.0.0.1:\(peerPort)/alice-wh", "webhook:http://127.0.0.1:\(peerPort)/hook"]}}}
      """)
    let output = directory.file("daemon.out")
    let tests = DaemonTests()
    let process = try tests.start(["--config", config], output: output)
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    #expect(tests.waitFor("ready:", in: output, process: process), "\(log(output))")
    let base = try #require(log(output).split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }, "\(log(output))")

    let added = try client.send(
      "POST", base + "/api/v1/tasks", body: Data(#"{"title":"Buy milk","locations":[{"at":"60.1699,24.9384","radius":150}]}"#.utf8),
      user: "alice", password: "alice-secret")
    #expect(added.status == 201, "\(added.text)")
    let id = try #require((try added.json() as? [String: Any])?["id"] as? String)

    let now = Int(Date().timeIntervalSince1970)
    let report = try client.send(
      "POST", base + "/owntracks", headers: ["Content-Type": "application/json", "X-Limit-U": "alice", "X-Limit-D": "phone"],
      body: Data(#"{"_type":"location","lat":60.17,"lon":24.9385,"tst":\#(now),"acc":12,"batt":80,"tid":"al"}"#.utf8),
      user: "alice", password: "alice-secret")
    #expect(report.status == 200)
    let commands = (try report.json() as? [[String: Any]]) ?? []
    #expect(commands.compactMap { $0["action"] as? String }.prefix(2) == ["clearWaypoints", "setWaypoints"])

    // Delivery runs off the ingest path: wait for both requests (a real process is being watched).
    for _ in 0..<5000 where receiver.requests.count < 2 { usleep(2000) }
    let ntfy = try #require(receiver.requests.first { $0.path == "/" }, "no ntfy request: \(receiver.requests.map(\.path))")
    #expect(ntfy.method == "POST")
    let message = try #require(try JSONSerialization.jsonObject(with: ntfy.body) as? [String: Any])
    #expect(message["topic"] as? String == "alice-wh")
    #expect(message["title"] as? String == "Buy milk")
    let actions = (message["actions"] as? [[String: Any]]) ?? []
    #expect(actions.map { $0["label"] as? String } == ["Mark Done", "Remind Later"])
    #expect(actions.allSatisfy { $0["action"] as? String == "http" && $0["method"] as? String == "POST" })
    #expect(actions.allSatisfy { ($0["url"] as? String)?.hasPrefix(base + "/actions/") == true })
    #expect(actions.first?["clear"] as? Bool == true)

    let hook = try #require(receiver.requests.first { $0.path == "/hook" }, "no webhook request")
    let expected = SodiumHMAC().tag(hook.body, key: Data("s3cret".utf8)).map { String(format: "%02x", $0) }.joined()
    #expect(hook.header("x-whilehere-signature") == "sha256=" + expected)
    let document = try #require(try JSONSerialization.jsonObject(with: hook.body) as? [String: Any])
    #expect(document["type"] as? String == "reminder" && document["task"] as? String == id)
    #expect((document["actions"] as? [Any])?.count == 2)

    let markDone = try #require(actions.first?["url"] as? String)
    #expect(try client.send("POST", markDone).status == 200)
    #expect(try client.send("POST", markDone).status == 409, "a replayed link is refused")
    #expect(try client.send("POST", base + "/actions/" + "eyJwIjoiYWxpY2UifQ" + String(repeating: "A", count: 43)).status == 403, "a forged link is refused")
    let task = try client.send("GET", base + "/api/v1/tasks/\(id)", user: "alice", password: "alice-secret")
    #expect((try task.json() as? [String: Any])?["state"] as? String == "completed")
    #expect(log(output).contains("reminder person=alice title=\"Buy milk\""))

    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(log(output).contains("stopped"))
  }

  func log(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
}
