import Composition
@testable import Daemon
import Foundation
import Testing
import TestSupport

/// The session lever on OwnTracks: only a device its person listed under
/// `remoteConfiguration` is switched to move mode for a precise session.
@Suite struct RemoteConfigurationTests {
  /// Bob reports 1 km south of a task, then enters its approach zone as
  /// his phone saw it; returns the actions in the answer to the entry.
  func enterZone(device: String, harness: DaemonHarness) throws -> [[String: Any]] {
    _ = try #require(harness.addTask("Buy milk", as: "bob", north: 1000, radius: 100))
    let first = harness.send("POST", "/owntracks", body: harness.location(north: 0), as: "bob", headers: ["X-Limit-D": device])
    let commands = try #require(harness.json(first) as? [[String: Any]])
    let waypoints = commands.first { $0["action"] as? String == "setWaypoints" }.flatMap { ($0["waypoints"] as? [String: Any])?["waypoints"] as? [[String: Any]] }
    let zone = try #require(waypoints?.compactMap { $0["rid"] as? String }.first { $0.hasPrefix("wh-zone:") }, "\(commands)")
    harness.clock.advance(by: 30)
    let tst = Int(harness.runtime.clock.now().timeIntervalSince1970)
    let entry = harness.send(
      "POST", "/owntracks", body: #"{"_type":"transition","event":"enter","rid":"\#(zone)","desc":"z","wtst":1,"tst":\#(tst),"t":"c"}"#, as: "bob",
      headers: ["X-Limit-D": device])
    #expect(entry.status == 200)
    return try #require(harness.json(entry) as? [[String: Any]])
  }

  @Test func aListedDeviceIsSwitchedToMoveModeForTheSession() throws {
    let harness = try DaemonHarness(bob: #", "remoteConfiguration": ["phone"]"#)
    let answer = try enterZone(device: "phone", harness: harness)
    let configuration = try #require(answer.first { $0["action"] as? String == "setConfiguration" }?["configuration"] as? [String: Any], "\(answer)")
    #expect(configuration["monitoring"] as? Int == 2)
    #expect(configuration["locatorInterval"] as? Int == 5)
    #expect(answer.contains { $0["action"] as? String == "reportLocation" })
  }

  @Test func anUnlistedDeviceIsOnlyAskedForAReport() throws {
    let harness = try DaemonHarness()
    let answer = try enterZone(device: "phone", harness: harness)
    #expect(!answer.contains { $0["action"] as? String == "setConfiguration" }, "\(answer)")
    #expect(answer.contains { $0["action"] as? String == "reportLocation" })
  }

  @Test func listingADeviceThePersonDoesNotHaveIsAConfigError() {
    #expect {
      _ = try DaemonHarness(bob: #", "remoteConfiguration": ["tablet"]"#)
    } throws: { error in
      "\(error)".contains("people.bob.remoteConfiguration") && "\(error)".contains("tablet")
    }
  }
}
