import Composition
@testable import Daemon
import Foundation
import Testing
import TestSupport

/// An OwnTracks phone that only cell towers place (Wi-Fi off, or none
/// around), through the daemon's HTTP handler: its reports are 1,000 m
/// accurate, too vague to plan from, and it used to get no regions at all.
@Suite struct CellTowerPhoneTests {
  func actions(_ answer: Any?) -> [String] {
    (answer as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
  }

  @Test func aFirstReportACellTowerPlacedIsAnsweredWithReportLocationAndTheLocationItSendsGetsTheRegions() throws {
    let harness = try DaemonHarness()
    _ = try #require(harness.addTask("Buy milk", as: "bob", north: 300, radius: 100))
    let vague = harness.send("POST", "/owntracks", body: harness.location(north: 700, accuracy: 1000), as: "bob", headers: ["X-Limit-D": "phone"])
    #expect(vague.status == 200)
    #expect(actions(harness.json(vague)) == ["reportLocation"], "\(String(decoding: vague.body, as: UTF8.self))")
    harness.clock.advance(by: 5)
    let located = harness.send("POST", "/owntracks", body: harness.location(north: 20, accuracy: 12), as: "bob", headers: ["X-Limit-D": "phone"])
    #expect(located.status == 200)
    let commands = try #require(harness.json(located) as? [[String: Any]])
    let waypoints = commands.first { $0["action"] as? String == "setWaypoints" }.flatMap { ($0["waypoints"] as? [String: Any])?["waypoints"] as? [[String: Any]] }
    #expect(waypoints.map { !$0.isEmpty } == true, "\(commands)")
  }
}
