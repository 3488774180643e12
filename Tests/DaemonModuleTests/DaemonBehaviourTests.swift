@testable import Daemon
import Composition
import Domain
import Foundation
import Gateway
import Testing
import TestSupport

/// The daemon as a phone, a person pressing buttons, and a script use it.
@Suite struct DaemonBehaviourTests {
  func commands(_ response: HTTPResponse) -> [String] {
    ((try? JSONSerialization.jsonObject(with: response.body)) as? [[String: Any]] ?? []).compactMap { $0["action"] as? String }
  }

  @Test func aLocationNearATaskFiresWithBothButtonsAndTheAnswerInstallsThePlan() throws {
    let daemon = try DaemonHarness()
    #expect(daemon.addTask("Buy milk") != nil)
    let far = daemon.send("POST", "/owntracks", body: daemon.location(north: 3000), headers: ["X-Limit-U": "alice", "X-Limit-D": "phone"])
    #expect(far.status == 200)
    #expect(commands(far) == ["clearWaypoints", "setWaypoints"])
    daemon.clock.advance(by: 120)
    let near = daemon.send("POST", "/owntracks", body: daemon.location(north: 20))
    #expect(near.status == 200)
    let links = daemon.links()
    #expect(links.map(\.label) == ["Mark Done", "Remind Later"])
    #expect(links.allSatisfy { $0.url.hasPrefix("https://wh.example.org/actions/") })
    // The same visit does not fire again.
    daemon.clock.advance(by: 30)
    _ = daemon.send("POST", "/owntracks", body: daemon.location(north: 25))
    #expect(daemon.links().count == 2)
  }

  /// An iPhone with the app's extended data says how it moves: sat still
  /// for a quarter of an hour at home, the OS's Wi-Fi position wandering
  /// into a shop 150 m away fires nothing; the same position while the
  /// phone says it walks fires.
  @Test func anIPhoneThatSaysItSitsStillIsNotRemindedByAWanderingPosition() throws {
    for (activity, fires) in [("stationary", false), ("walking", true)] {
      let daemon = try DaemonHarness()
      #expect(daemon.addTask("Buy milk", north: 150, radius: 100) != nil)
      func report(north: Double, activities: String) -> HTTPResponse {
        let body = daemon.location(north: north, accuracy: 65).dropLast() + #","motionactivities":["\#(activities)"],"m":1}"#
        return daemon.send("POST", "/owntracks", body: String(body), headers: ["X-Limit-U": "alice", "X-Limit-D": "phone"])
      }
      #expect(report(north: 0, activities: "stationary").status == 200)
      daemon.clock.advance(by: 900)
      #expect(report(north: 140, activities: activity).status == 200)
      #expect(daemon.links().isEmpty != fires, "\(activity)")
    }
  }

  @Test func markDoneWorksOnceAndTheNextAnswerClearsTheRegions() throws {
    let daemon = try DaemonHarness()
    let id = try #require(daemon.addTask("Buy milk"))
    _ = daemon.send("POST", "/owntracks", body: daemon.location(north: 20))
    let done = try #require(daemon.links().first { $0.label == "Mark Done" })
    let pressed = daemon.send("POST", DaemonHarness.path(of: done.url), as: nil)
    #expect(pressed.status == 200)
    #expect((daemon.json(pressed) as? [String: Any])?["state"] as? String == "completed")
    #expect(daemon.send("POST", DaemonHarness.path(of: done.url), as: nil).status == 409)
    let task = daemon.json(daemon.send("GET", "/api/v1/tasks/\(id)")) as? [String: Any]
    #expect(task?["state"] as? String == "completed")
    #expect(task?["completedAt"] is String)
    let next = daemon.send("POST", "/owntracks", body: daemon.location(north: 22))
    let list = ((try? JSONSerialization.jsonObject(with: next.body)) as? [[String: Any]])?.last?["waypoints"] as? [String: Any]
    #expect(commands(next) == ["clearWaypoints", "setWaypoints"])
    #expect((list?["waypoints"] as? [Any])?.isEmpty == true)
  }

  @Test func remindLaterSnoozesAndTheTaskComesBackAfterwards() throws {
    let daemon = try DaemonHarness()
    let id = try #require(daemon.addTask("Buy milk"))
    _ = daemon.send("POST", "/owntracks", body: daemon.location(north: 20))
    let later = try #require(daemon.links().first { $0.label == "Remind Later" })
    #expect(daemon.send("POST", DaemonHarness.path(of: later.url), as: nil).status == 200)
    let task = daemon.json(daemon.send("GET", "/api/v1/tasks/\(id)")) as? [String: Any]
    #expect(task?["state"] as? String == "snoozed")
    #expect(task?["snoozedUntil"] is String)
    #expect(daemon.json(daemon.send("GET", "/api/v1/tasks", query: ["state": "snoozed"])).map { ($0 as? [Any])?.count } == 1)
  }

  @Test func aLinkExpiresAndAChangedLinkIsRefused() throws {
    let daemon = try DaemonHarness()
    _ = daemon.addTask("Buy milk")
    _ = daemon.send("POST", "/owntracks", body: daemon.location(north: 20))
    let done = try #require(daemon.links().first)
    var changed = Array(DaemonHarness.path(of: done.url))
    changed[changed.count - 3] = changed[changed.count - 3] == "A" ? "B" : "A"
    #expect(daemon.send("POST", String(changed), as: nil).status == 403)
    daemon.clock.advance(by: 8 * 86_400)
    #expect(daemon.send("POST", DaemonHarness.path(of: done.url), as: nil).status == 410)
  }

  @Test func peopleAreKeptApart() throws {
    let daemon = try DaemonHarness()
    let alices = try #require(daemon.addTask("Alice's secret errand"))
    #expect(daemon.send("GET", "/api/v1/tasks/\(alices)", as: "bob").status == 404)
    #expect((daemon.json(daemon.send("GET", "/api/v1/tasks", as: "bob")) as? [Any])?.isEmpty == true)
    #expect(daemon.send("POST", "/api/v1/tasks/\(alices)/done", as: "bob").status == 404)
    // Bob standing at Alice's place fires nothing for her.
    let bob = daemon.send("POST", "/owntracks", body: daemon.location(north: 5), as: "bob", query: ["d": "phone"])
    #expect(bob.status == 200)
    #expect(daemon.links().isEmpty)
    let task = daemon.json(daemon.send("GET", "/api/v1/tasks/\(alices)")) as? [String: Any]
    #expect(task?["state"] as? String == "active")
  }

  @Test func repeatedFailedLoginsAreSlowedThenForgiven() throws {
    let daemon = try DaemonHarness()
    for _ in 0..<5 { #expect(daemon.send("GET", "/api/v1/tasks", password: "guess").status == 401) }
    let slowed = daemon.send("GET", "/api/v1/tasks")
    #expect(slowed.status == 429, "the right password is not even checked while slowed")
    #expect(Int(slowed.headers["Retry-After"] ?? "") ?? 0 > 0)
    daemon.clock.advance(by: 301)
    #expect(daemon.send("GET", "/api/v1/tasks").status == 200)
  }

  @Test func healthAndTheAPIAnswer() throws {
    let daemon = try DaemonHarness()
    let health = daemon.json(daemon.send("GET", "/health", as: nil)) as? [String: Any]
    #expect(health?["status"] as? String == "ready")
    #expect(health?["people"] as? Int == 2)
    _ = daemon.addTask("Buy milk", north: 2000)
    _ = daemon.send("POST", "/owntracks", body: daemon.location())
    let plan = daemon.json(daemon.send("GET", "/api/v1/plan")) as? [String: Any]
    #expect((plan?["regions"] as? [Any])?.isEmpty == false)
    let events = daemon.json(daemon.send("GET", "/api/v1/events")) as? [[String: Any]]
    #expect(events?.contains { $0["kind"] as? String == "plan" } == true)
    let place = try daemon.host.people.byName["alice"]!.engine.places.add(name: "Alepa", coordinate: try Coordinate(latitude: 60.17, longitude: 24.94))
    let list = try daemon.host.people.byName["alice"]!.engine.places.lists.create("Shops")
    _ = try daemon.host.people.byName["alice"]!.engine.places.lists.add(place: place.id.rawValue, to: list.id.rawValue)
    let lists = daemon.json(daemon.send("GET", "/api/v1/lists")) as? [[String: Any]]
    #expect(lists?.first?["name"] as? String == "Shops" && lists?.first?["places"] as? [String] == [place.id.rawValue])
    #expect((daemon.json(daemon.send("GET", "/api/v1/lists", as: "bob", query: ["d": "phone"])) as? [Any])?.isEmpty == true)
    let status = daemon.json(daemon.send("GET", "/api/v1/status")) as? [String: Any]
    #expect(status?["capacity"] as? Int == 20)
    #expect(daemon.send("POST", "/owntracks", body: "").status == 200, "apps sometimes post nothing")
  }
}

@Suite struct DaemonReplayTests {
  @Test func aReplayedTraceFiresForItsPerson() throws {
    let daemon = try DaemonHarness()
    _ = daemon.addTask("Buy milk")
    let trace = daemon.directory.write(
      "trace.jsonl",
      """
      {"t":"2012-12-18T11:53:30Z","lat":60.1600,"lon":24.9384,"acc":10}
      {"t":"2012-12-18T11:55:30Z","lat":60.1699,"lon":24.9385,"acc":10}
      """)
    let finished = try daemon.host.replay(path: trace, person: "alice", restamp: true, clock: daemon.runtime.clock)
    finished()
    #expect(daemon.links().map(\.label) == ["Mark Done", "Remind Later"])
    #expect(throws: DaemonError.self) { try daemon.host.replay(path: trace, person: "mallory", restamp: true, clock: daemon.runtime.clock) }
  }
}

@Suite struct DaemonDesktopTests {
  @Test func pressingMarkDoneOnTheDesktopFinishesTheTask() throws {
    let scratch = TemporaryDirectory()
    let command = scratch.write("notify-send", "#!/bin/sh\necho done\n")
    chmod(command, 0o755)
    let daemon = try DaemonHarness(notify: ["desktop:" + command])
    let id = try #require(daemon.addTask("Buy milk"))
    _ = daemon.send("POST", "/owntracks", body: daemon.location(north: 10))
    // The answer arrives from the notification's own thread, and its event
    // is recorded after the task is done: poll the API for both, bounded.
    var state: String?
    var answered = false
    for _ in 0..<5000 {
      state = (daemon.json(daemon.send("GET", "/api/v1/tasks/\(id)")) as? [String: Any])?["state"] as? String
      let events = daemon.json(daemon.send("GET", "/api/v1/events")) as? [[String: Any]]
      answered = events?.contains { $0["kind"] as? String == "answer" && ($0["detail"] as? String)?.hasPrefix("done") == true } == true
      if state == "completed" && answered { break }
      usleep(2000)
    }
    #expect(state == "completed")
    #expect(answered, "the answer is among the events")
  }
}

/// The documents an operator relies on match what the daemon does.
@Suite struct DaemonDocumentsTests {
  static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Docs").standardized

  @Test func theSampleConfigLoads() throws {
    let config = try ConfigLoader.load(
      LaunchOptions(program: .headless, profile: nil, configPath: Self.docs.appendingPathComponent("whilehered.sample.json").path, overrides: [:], environment: [:]))
    #expect(config.settings.people.keys.sorted() == ["alice", "bob"])
    #expect(config.settings.mqttHost == "127.0.0.1")
  }

  @Test func theOpenAPIFileListsEveryRoute() throws {
    let text = try String(contentsOf: Self.docs.appendingPathComponent("openapi.yaml"), encoding: .utf8)
    for path in [
      "/health", "/owntracks", "/actions/{token}", "/api/v1/tasks", "/api/v1/tasks/{task}", "/api/v1/tasks/{task}/{answer}", "/api/v1/places",
      "/api/v1/lists", "/api/v1/plan", "/api/v1/events", "/api/v1/status", "/api/v1/store", "/api/v1/operations", "/web/session", "/app/{file}",
      "/api/v1/tasks/{task}/locations", "/api/v1/tasks/{task}/locations/{location}", "/api/v1/suggestions", "/api/v1/preferences", "/api/v1/undo", "/api/v1/places/{place}",
      "/api/v1/lists/{list}/places/{place}",
      "/api/v1/imports", "/api/v1/imports/current", "/api/v1/imports/review", "/api/v1/imports/review/{row}",
    ] {
      #expect(text.contains("\n  \(path):\n"), "\(path) is not documented")
    }
  }
}

@Suite struct DaemonAnalyticsTests {
  @Test func theDaemonRecordsAPersonsUsageOnlyWhenSwitchedOnAndThePersonAllowedIt() throws {
    let scratch = TemporaryDirectory()
    let off = try DaemonHarness(extra: #", "analytics": {"sink": ["jsonl:\#(scratch.file("off.jsonl"))"]}"#)
    _ = off.addTask("Buy milk")
    _ = off.send("POST", "/owntracks", body: off.location(north: 10))
    off.host.stop(drainSeconds: 1)
    #expect(!FileManager.default.fileExists(atPath: scratch.file("off.jsonl")))
    let unasked = try DaemonHarness(extra: #", "analytics": {"sink": ["jsonl:\#(scratch.file("unasked.jsonl"))"], "daemon": "on"}"#)
    _ = unasked.addTask("Buy milk")
    _ = unasked.send("POST", "/owntracks", body: unasked.location(north: 10))
    unasked.host.stop(drainSeconds: 1)
    let unaskedText = (try? String(contentsOfFile: scratch.file("unasked.jsonl"), encoding: .utf8)) ?? ""
    #expect(!unaskedText.contains("reminderFired"), "the operator's switch alone records nobody's usage")
    let on = try DaemonHarness(extra: #", "analytics": {"sink": ["jsonl:\#(scratch.file("on.jsonl"))"], "daemon": "on"}"#)
    #expect(on.send("PUT", "/api/v1/preferences", body: #"{"analytics":"allowed"}"#).status == 200)
    _ = on.addTask("Buy milk")
    _ = on.send("POST", "/owntracks", body: on.location(north: 10))
    on.host.stop(drainSeconds: 1)
    let text = try String(contentsOfFile: scratch.file("on.jsonl"), encoding: .utf8)
    #expect(text.contains(#""event":"reminderFired""#))
    #expect(!text.contains("Buy milk") && !text.contains("alice") && !text.contains("60.1"))
  }
}
