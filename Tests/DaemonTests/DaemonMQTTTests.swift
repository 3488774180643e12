import Foundation
import Gateway
import Locking
import MQTT
import Sodium
import Testing
import TestSupport

/// The real whilehered binary with a real mosquitto broker: a phone in
/// OwnTracks MQTT mode gets its reminder and its waypoint commands.
@Suite(.serialized) struct DaemonMQTTTests {
  final class Inbox: Sendable {
    private let items = Locked<[String]>([])
    func add(_ item: String) { items.withLock { $0.append(item) } }
    var all: [String] { items.withLock { $0 } }
  }

  /// alice (password alice-secret) on a file store, MQTT at `mqttPort`.
  static func config(in directory: TemporaryDirectory, mqttPort: Int, notify: String = "") throws -> String {
    let hash = try Argon2idHasher(operations: 1, memoryBytes: 8192).hash("alice-secret")
    return directory.write(
      "config.json",
      """
      {"store": "file:\(directory.file("store"))", "server": {"listen": "127.0.0.1:0"}, "notify": [\(notify)],
       "mqtt": {"host": "127.0.0.1", "port": \(mqttPort), "client-id": "whilehered-test"},
       "people": {"alice": {"password": "\(hash)"}}}
      """)
  }

  @Test(.enabled(if: MosquittoServer.isInstalled)) func aPhoneOverMQTTGetsItsReminderAndCommands() throws {
    let broker = try MosquittoServer()
    let directory = TemporaryDirectory()
    let reminders = directory.file("reminders.jsonl")
    let config = try Self.config(in: directory, mqttPort: broker.port, notify: "\"jsonl:\(reminders)\"")
    let output = directory.file("daemon.out")
    let tests = DaemonTests()
    let process = try tests.start(["--config", config], output: output)
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    #expect(tests.waitFor("ready:", in: output, process: process), "\(log(output))")
    #expect(log(output).contains("mqtt 127.0.0.1:\(broker.port)"))
    let base = try #require(log(output).split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) })
    let added = try TestHTTPClient().send(
      "POST", base + "/api/v1/tasks", body: Data(#"{"title":"Buy milk","locations":[{"at":"60.1699,24.9384","radius":150}]}"#.utf8),
      user: "alice", password: "alice-secret")
    #expect(added.status == 201)

    let commands = Inbox()
    let phone = MosquittoBroker(options: MosquittoBroker.Options(host: "127.0.0.1", port: broker.port, clientID: "alice-phone"))
    try phone.connect(subscriptions: ["owntracks/alice/phone/cmd"]) { _, payload in
      commands.add(((try? JSONSerialization.jsonObject(with: payload)) as? [String: Any])?["action"] as? String ?? "?")
    }
    defer { phone.disconnect() }
    let now = Int(Date().timeIntervalSince1970)
    try phone.publish(topic: "owntracks/alice/phone", payload: Data(#"{"_type":"location","lat":60.17,"lon":24.9385,"tst":\#(now),"acc":12}"#.utf8))
    // A real broker and process: poll.
    for _ in 0..<5000 where commands.all.count < 2 || !FileManager.default.fileExists(atPath: reminders) { usleep(2000) }
    #expect(commands.all.prefix(2) == ["clearWaypoints", "setWaypoints"])
    let line = (try? String(contentsOfFile: reminders, encoding: .utf8)) ?? ""
    #expect(line.contains("\"title\":\"Buy milk\""))
    #expect(line.contains("Mark Done") && line.contains("Remind Later"))
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }

  func log(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

  /// A broker that is down when the daemon starts: HTTP is served at once,
  /// /health says MQTT is connecting, and the daemon connects when the
  /// broker comes up.
  @Test(.enabled(if: MosquittoServer.isInstalled)) func aBrokerDownAtStartDoesNotStopHTTPAndIsJoinedWhenItComesUp() throws {
    let port = try LoopbackPort.free()
    let directory = TemporaryDirectory()
    let config = try Self.config(in: directory, mqttPort: port)
    let output = directory.file("daemon.out")
    let tests = DaemonTests()
    let process = try tests.start(["--config", config], output: output)
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    #expect(tests.waitFor("ready:", in: output, process: process), "\(log(output))")
    #expect(log(output).contains("mqtt-unavailable"))
    let base = try #require(log(output).split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) })
    let health = try TestHTTPClient().send("GET", base + "/health")
    #expect(health.status == 200)
    let mqtt = ((try? JSONSerialization.jsonObject(with: health.body)) as? [String: Any])?["mqtt"] as? String ?? ""
    #expect(mqtt.hasPrefix("connecting"), "\(mqtt)")
    let report = try TestHTTPClient().send(
      "POST", base + "/owntracks", body: Data(#"{"_type":"location","lat":60.17,"lon":24.9385,"tst":\#(Int(Date().timeIntervalSince1970)),"acc":12}"#.utf8),
      user: "alice", password: "alice-secret")
    #expect(report.status == 200, "phones on HTTP report while MQTT is down")
    let broker = try MosquittoServer(port: port)
    // The daemon retries on its own schedule (1 s, then doubling): poll the real process.
    #expect(tests.waitFor("mqtt-connected", in: output, process: process), "\(log(output))")
    let after = try TestHTTPClient().send("GET", base + "/health")
    #expect(((try? JSONSerialization.jsonObject(with: after.body)) as? [String: Any])?["mqtt"] as? String == "connected")
    _ = broker
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }
}
