import Domain
import Foundation
import Sodium
import Testing
import TestSupport

/// The real whilehered binary reading a GPS through Debian's gpsd, fed by
/// gpsfake from an NMEA log made from a real trace: the person the GPS
/// belongs to gets the reminder for a place on the route.
@Suite(.serialized) struct DaemonGpsdTests {
  static let trace = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/data/traces/zurich-day.jsonl").standardized.path
  static var usable: Bool {
    Gpsfake.isInstalled && FileManager.default.fileExists(atPath: trace)
  }

  @Test(.enabled(if: usable)) func aGPSOnTheMachineFiresItsOwnersReminder() throws {
    let gpsfake = try Gpsfake(trace: Self.trace, limit: 60, once: false)
    let points = gpsfake.points
    let gpsPort = gpsfake.port
    let directory = TemporaryDirectory()
    let hash = try Argon2idHasher(operations: 1, memoryBytes: 8192).hash("carol-secret")
    let reminders = directory.file("reminders.jsonl")
    let config = directory.write(
      "config.json",
      """
      {"store": "file:\(directory.file("store"))", "server": {"listen": "127.0.0.1:0"}, "notify": ["jsonl:\(reminders)"],
       "gpsd": {"host": "127.0.0.1", "port": \(gpsPort), "person": "carol"},
       "people": {"carol": {"password": "\(hash)"}}}
      """)
    // The place on the route: the middle of the replayed stretch.
    let place = points[30]
    let tests = DaemonTests()
    let output = directory.file("daemon.out")
    let process = try tests.start(["--config", config], output: output)
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    #expect(tests.waitFor("ready:", in: output, process: process))
    let log = { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
    let base = try #require(log().split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) })
    let added = try TestHTTPClient().send(
      "POST", base + "/api/v1/tasks",
      body: Data(#"{"title":"Pick up the parcel","locations":[{"at":"\#(place.latitude),\#(place.longitude)","radius":200}]}"#.utf8),
      user: "carol", password: "carol-secret")
    #expect(added.status == 201)
    // gpsfake loops the log; a real GPS and process: poll for the reminder.
    for _ in 0..<20_000 where !((try? String(contentsOfFile: reminders, encoding: .utf8)) ?? "").contains("Pick up the parcel") { usleep(2000) }
    #expect(((try? String(contentsOfFile: reminders, encoding: .utf8)) ?? "").contains("\"title\":\"Pick up the parcel\""), "\(log())\ngpsfake: \(gpsfake.output)")
    #expect(log().contains("via=gpsd:127.0.0.1:\(gpsPort)"))
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }
}
