import Foundation
import Geofencing
import Gateway
import TestSupport
import Testing

/// The page's files and the API it edits tasks with: only named files are
/// served, always under a policy without inline scripts, and every edit a
/// pin or handle makes is checked like the CLI's.
@Suite struct WebPageTests {
  @Test func thePageIsServedUnderAPolicyWithoutInlineScripts() throws {
    let daemon = try DaemonHarness()
    #expect(daemon.send("GET", "/", as: nil).headers["Location"] == "/app/")
    #expect(daemon.send("GET", "/app", as: nil).headers["Location"] == "/app/")
    let page = daemon.send("GET", "/app/", as: nil)
    #expect(page.status == 200)
    #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
    let policy = try #require(page.headers["Content-Security-Policy"])
    #expect(policy.contains("script-src 'self'"))
    #expect(!policy.contains("unsafe-inline"))
    #expect(policy.contains("frame-ancestors 'none'"))
    let html = String(decoding: page.body, as: UTF8.self)
    #expect(!html.contains("<script>"), "no inline script in the page")
    for file in ["app.js", "api.js", "map.js", "ui.js", "places.js", "importing.js", "app.css", "basemap.geojson", "config.json"] {
      #expect(daemon.send("GET", "/app/\(file)", as: nil).status == 200, "\(file)")
    }
  }

  @Test(arguments: ["/app/../config.json", "/app/leaflet/../../../etc/passwd", "/app/leaflet/images/../../../../etc/passwd", "/app/server.key", "/app/leaflet/leaflet.js.map"])
  func nothingOutsideTheNamedFilesIsServed(path: String) throws {
    let daemon = try DaemonHarness()
    let response = daemon.send("GET", path, as: nil)
    #expect(response.status == 404, "\(path)")
    #expect(!String(decoding: response.body, as: UTF8.self).contains("root:"))
  }

  @Test func leafletComesFromItsConfiguredDirectoryAndItsAbsenceIsExplained() throws {
    let leaflet = TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: leaflet.path + "/images", withIntermediateDirectories: true)
    try Data("window.L = {};".utf8).write(to: URL(fileURLWithPath: leaflet.path + "/leaflet.js"))
    let daemon = try DaemonHarness(extra: #", "web": {"leaflet": "\#(leaflet.path)"}"#)
    #expect(String(decoding: daemon.send("GET", "/app/leaflet/leaflet.js", as: nil).body, as: UTF8.self) == "window.L = {};")
    #expect(daemon.send("GET", "/app/leaflet/leaflet.css", as: nil).status == 404)
    let missing = try DaemonHarness(extra: #", "web": {"leaflet": "\#(leaflet.path)/nowhere"}"#)
    let script = String(decoding: missing.send("GET", "/app/leaflet/leaflet.js", as: nil).body, as: UTF8.self)
    #expect(script.contains("apt-get install libjs-leaflet"))
  }

  @Test func aConfiguredTileServerIsTheOnlyOtherImageSource() throws {
    let daemon = try DaemonHarness(extra: #", "web": {"tiles": "https://tile.example.org/{z}/{x}/{y}.png", "attribution": "© OSM"}"#)
    let policy = try #require(daemon.send("GET", "/app/", as: nil).headers["Content-Security-Policy"])
    #expect(policy.contains("img-src 'self' data: https://tile.example.org;"))
    let config = daemon.json(daemon.send("GET", "/app/config.json", as: nil)) as? [String: String]
    #expect(config?["tiles"] == "https://tile.example.org/{z}/{x}/{y}.png")
    #expect(throws: (any Error).self) { try DaemonHarness(extra: #", "web": {"tiles": "ftp://tiles/{z}"}"#) }
  }

  @Test func dragsAndHandlesChangeTheStoredPlaceWithinTheRules() throws {
    let daemon = try DaemonHarness()
    let task = try #require(daemon.addTask("Buy milk"))
    let moved = daemon.send("PATCH", "/api/v1/tasks/\(task)/locations/l1", body: #"{"lat":60.171,"lon":24.941}"#)
    #expect(moved.status == 200)
    let location = try #require(((daemon.json(moved) as? [String: Any])?["locations"] as? [[String: Any]])?.first)
    #expect(location["lat"] as? Double == 60.171)
    #expect(location["lon"] as? Double == 24.941)
    #expect(location["radius"] as? Double == 150, "moving keeps the radius")
    let resized = daemon.send("PATCH", "/api/v1/tasks/\(task)/locations/l1", body: #"{"radius":400}"#)
    #expect(((daemon.json(resized) as? [String: Any])?["locations"] as? [[String: Any]])?.first?["radius"] as? Double == 400)
    let before = try daemon.store("alice").operations(since: nil).count
    for body in [#"{"radius":5}"#, #"{"radius":20000}"#, #"{"lat":60.2}"#, #"{"lat":95,"lon":24}"#, #"{"radius":"big"}"#] {
      #expect(daemon.send("PATCH", "/api/v1/tasks/\(task)/locations/l1", body: body).status == 400, "\(body)")
    }
    #expect(daemon.send("PATCH", "/api/v1/tasks/\(task)/locations/l9", body: #"{"radius":300}"#).status == 404)
    #expect(try daemon.store("alice").operations(since: nil).count == before, "refused edits store nothing")
  }

  @Test func placesAreAddedReorderedAndRemoved() throws {
    let daemon = try DaemonHarness()
    let task = try #require(daemon.addTask("Post letters"))
    #expect(daemon.send("POST", "/api/v1/tasks/\(task)/locations", body: #"{"at":"60.1720,24.9450","radius":80}"#).status == 201)
    let reordered = daemon.send("PATCH", "/api/v1/tasks/\(task)/locations/l2", body: #"{"priority":1}"#)
    #expect(((daemon.json(reordered) as? [String: Any])?["locations"] as? [[String: Any]])?.map { $0["id"] as? String } == ["l2", "l1"])
    #expect(daemon.send("DELETE", "/api/v1/tasks/\(task)/locations/l1").status == 200)
    #expect(daemon.send("DELETE", "/api/v1/tasks/\(task)/locations/l2").status == 409, "a task keeps at least one place")
  }

  @Test func suggestedPlacesAreSavedOnceAndNamed() throws {
    let daemon = try DaemonHarness()
    let found = daemon.json(daemon.send("GET", "/api/v1/suggestions", query: ["q": "buy milk", "lat": "60.1699", "lon": "24.9384"])) as? [[String: Any]]
    let refs = try #require(found?.compactMap { $0["ref"] as? String })
    #expect(refs.count >= 2)
    let body = #"{"title":"Buy milk","locations":[{"ref":"\#(refs[0])"},{"ref":"\#(refs[1])"}]}"#
    let first = daemon.json(daemon.send("POST", "/api/v1/tasks", body: body)) as? [String: Any]
    let places = (first?["locations"] as? [[String: Any]])?.compactMap { ($0["place"] as? [String: Any])?["id"] as? String }
    #expect(places?.count == 2)
    #expect((first?["locations"] as? [[String: Any]])?.allSatisfy { (($0["place"] as? [String: Any])?["name"] as? String)?.isEmpty == false } == true)
    let again = daemon.json(daemon.send("POST", "/api/v1/tasks", body: body.replacingOccurrences(of: "Buy milk", with: "Buy bread"))) as? [String: Any]
    #expect((again?["locations"] as? [[String: Any]])?.compactMap { ($0["place"] as? [String: Any])?["id"] as? String } == places, "the same map place is the same saved place")
    #expect(daemon.send("POST", "/api/v1/tasks", body: #"{"title":"x","locations":[{"ref":"node/0"}]}"#).status == 400)
    #expect(daemon.send("GET", "/api/v1/suggestions", query: ["q": "milk"]).status == 400, "where to look is required")
  }

  @Test func savedPlacesComeAsTheCLIListsThemWithTheirLists() throws {
    let daemon = try DaemonHarness()
    _ = try #require(daemon.addTask("Buy milk"))
    let stored = daemon.json(daemon.send("GET", "/api/v1/places")) as? [[String: Any]]
    let summary = daemon.json(daemon.send("GET", "/api/v1/places", query: ["form": "summary"])) as? [[String: Any]]
    #expect(stored?.count == summary?.count)
    for place in summary ?? [] {
      #expect(place["name"] is String && place["lat"] is Double && place["tags"] is [String], "\(place)")
    }
    #expect(daemon.send("GET", "/api/v1/places", query: ["form": "raw"]).status == 400)
  }

  @Test func theWelcomeAndTheAnalyticsChoiceAreAskedOnceAndKept() throws {
    let daemon = try DaemonHarness()
    let first = daemon.json(daemon.send("GET", "/api/v1/preferences")) as? [String: Any]
    #expect(first?["welcomed"] as? Bool == false)
    #expect(first?["analytics"] == nil)
    #expect(first?["analyticsOffered"] as? Bool == false, "the harness's operator collects nothing")
    #expect(daemon.send("PUT", "/api/v1/preferences", body: #"{"analytics":"maybe"}"#).status == 400)
    #expect(daemon.send("PUT", "/api/v1/preferences", body: #"{"welcomed":true,"analytics":"declined"}"#).status == 200)
    let after = daemon.json(daemon.send("GET", "/api/v1/preferences")) as? [String: Any]
    #expect(after?["welcomed"] as? Bool == true)
    #expect(after?["analytics"] as? String == "declined")
    let bob = daemon.json(daemon.send("GET", "/api/v1/preferences", as: "bob")) as? [String: Any]
    #expect(bob?["welcomed"] as? Bool == false, "each person answers for themselves")
  }

  @Test func deletesAndMarkDoneCanBeUndoneFromThePage() throws {
    let daemon = try DaemonHarness()
    let task = try #require(daemon.addTask("Buy milk"))
    #expect(daemon.send("POST", "/api/v1/tasks/\(task)/done").status == 200)
    #expect(daemon.send("DELETE", "/api/v1/tasks/\(task)").status == 200)
    let entries = try #require(daemon.json(daemon.send("GET", "/api/v1/undo")) as? [[String: Any]])
    #expect(entries.count == 2)
    let newest = try #require(entries.first?["key"] as? String)
    #expect(daemon.send("POST", "/api/v1/undo", body: #"{"key":"\#(newest)"}"#).status == 200)
    #expect((daemon.json(daemon.send("GET", "/api/v1/tasks/\(task)")) as? [String: Any])?["state"] as? String == "completed", "the delete is undone")
    #expect(daemon.send("POST", "/api/v1/undo").status == 200, "then the newest: Mark Done")
    #expect((daemon.json(daemon.send("GET", "/api/v1/tasks/\(task)")) as? [String: Any])?["state"] as? String == "active")
    #expect(daemon.send("POST", "/api/v1/undo").status == 409, "nothing left to undo")
  }

  @Test func thePhonesStatusSaysWhatToLookAt() throws {
    let daemon = try DaemonHarness(notify: ["ntfy:http://127.0.0.1:9/alice-topic"])
    let before = daemon.json(daemon.send("GET", "/api/v1/status")) as? [String: Any]
    #expect((before?["notes"] as? [String])?.contains { $0.contains("has not reported yet") } == true)
    #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 3000)).status == 200)
    let after = daemon.json(daemon.send("GET", "/api/v1/status")) as? [String: Any]
    #expect((after?["notes"] as? [String])?.isEmpty == true, "\(String(describing: after?["notes"]))")
    daemon.clock.advance(by: 3 * 3600)
    let later = daemon.json(daemon.send("GET", "/api/v1/status")) as? [String: Any]
    #expect((later?["notes"] as? [String])?.contains { $0.contains("No report for 3 h") } == true, "\(String(describing: later?["notes"]))")
  }

  /// Reminders that go only to the daemon's log or a file look delivered
  /// but never reach the phone: the status says so, and how to fix it,
  /// without the sink's topic or URL.
  @Test func remindersThatReachNoPhoneArePointedOut() throws {
    let daemon = try DaemonHarness()
    #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 3000)).status == 200)
    let notes = (daemon.json(daemon.send("GET", "/api/v1/status")) as? [String: Any])?["notes"] as? [String] ?? []
    #expect(notes.contains { $0.contains("Reminders go only to this page and the daemon's jsonl output") && $0.contains("notify") }, "\(notes)")
    #expect(!notes.joined().contains("reminders.jsonl"), "the sink's path stays out of the page")
  }

  /// The Phone tab's "precise location today": the allowance, and the
  /// sessions and single fixes that spent it in the rolling day.
  @Test func theStatusCountsTodaysSessionsAgainstTheAllowance() throws {
    let daemon = try DaemonHarness()
    _ = try #require(daemon.addTask("Buy milk", north: 1000, radius: 100))
    #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 0)).status == 200)
    let before = try #require(daemon.json(daemon.send("GET", "/api/v1/status")) as? [String: Any])
    #expect(before["sessions"] as? Int == 0 && before["preciseSecondsAllowed"] as? Double == SessionConfig().allowance, "\(before)")
    let plan = try #require(daemon.json(daemon.send("GET", "/api/v1/plan")) as? [String: Any])
    let zone = try #require((plan["regions"] as? [[String: Any]])?.compactMap { $0["id"] as? String }.first { $0.hasPrefix("wh-zone:") })
    daemon.clock.advance(by: 30)
    let tst = Int(daemon.runtime.clock.now().timeIntervalSince1970)
    let entered = #"{"_type":"transition","event":"enter","rid":"\#(zone)","tst":\#(tst),"lat":60.1759,"lon":24.9384,"acc":50}"#
    #expect(daemon.send("POST", "/owntracks", body: entered).status == 200)
    let after = try #require(daemon.json(daemon.send("GET", "/api/v1/status")) as? [String: Any])
    #expect(after["sessions"] as? Int == 1, "\(after)")
  }

  /// A person with two phones sees each one's last report and battery.
  @Test func eachDevicesLastReportIsShown() throws {
    let daemon = try DaemonHarness()
    let tst = Int(daemon.runtime.clock.now().timeIntervalSince1970)
    for (device, battery) in [("phone", 80), ("tablet", 35)] {
      let body = #"{"_type":"location","lat":60.1699,"lon":24.9384,"tst":\#(tst),"acc":10,"batt":\#(battery),"bs":1}"#
      #expect(daemon.send("POST", "/owntracks", body: body, headers: ["X-Limit-D": device]).status == 200)
    }
    let status = try #require(daemon.json(daemon.send("GET", "/api/v1/status")) as? [String: Any])
    let devices = (status["devices"] as? [[String: Any]])?.map { "\($0["device"] ?? "?") \($0["battery"] ?? "?")" }
    #expect(devices == ["phone 80", "tablet 35"], "\(status)")
  }

  @Test func thePhonesBatteryIsShownAndALowOneIsPointedOut() throws {
    let daemon = try DaemonHarness()
    let tst = Int(daemon.runtime.clock.now().timeIntervalSince1970)
    let low = #"{"_type":"location","lat":60.1699,"lon":24.9384,"tst":\#(tst),"acc":10,"batt":12,"bs":1}"#
    #expect(daemon.send("POST", "/owntracks", body: low).status == 200)
    let status = daemon.json(daemon.send("GET", "/api/v1/status")) as? [String: Any]
    let fix = status?["lastFix"] as? [String: Any]
    #expect(fix?["battery"] as? Int == 12 && fix?["charging"] as? Bool == false)
    #expect((status?["notes"] as? [String])?.contains { $0.contains("battery was at 12 %") } == true, "\(String(describing: status?["notes"]))")
    let charging = #"{"_type":"location","lat":60.1699,"lon":24.9384,"tst":\#(tst + 1),"acc":10,"batt":12,"bs":2}"#
    #expect(daemon.send("POST", "/owntracks", body: charging).status == 200)
    let now = daemon.json(daemon.send("GET", "/api/v1/status")) as? [String: Any]
    #expect((now?["notes"] as? [String])?.contains { $0.contains("battery") } == false, "on the charger: nothing to point out")
  }

  @Test func aPlaceIsEditedAndFiledInListsFromItsCard() throws {
    let daemon = try DaemonHarness()
    let found = daemon.json(daemon.send("GET", "/api/v1/suggestions", query: ["q": "buy milk", "lat": "60.1699", "lon": "24.9384"])) as? [[String: Any]]
    let ref = try #require(found?.first?["ref"] as? String)
    #expect(daemon.send("POST", "/api/v1/tasks", body: #"{"title":"Buy milk","locations":[{"ref":"\#(ref)"}]}"#).status == 201)
    let placeID = try #require((daemon.json(daemon.send("GET", "/api/v1/places", query: ["form": "summary"])) as? [[String: Any]])?.first?["id"] as? String)
    let before = try daemon.store("alice").operations(since: nil).count
    #expect(daemon.send("PATCH", "/api/v1/places/\(placeID)", body: #"{"name":"   "}"#).status == 400)
    #expect(daemon.send("PATCH", "/api/v1/places/\(placeID)", body: #"{"removeTags":["never-there"]}"#).status == 404)
    #expect(try daemon.store("alice").operations(since: nil).count == before, "refused edits store nothing")
    let edited = daemon.json(daemon.send("PATCH", "/api/v1/places/\(placeID)", body: #"{"name":"Alepa Kamppi","note":"back door","addTags":["grocery"]}"#)) as? [String: Any]
    #expect(edited?["name"] as? String == "Alepa Kamppi")
    #expect(edited?["tags"] as? [String] == ["grocery"])
    let list = try #require((daemon.json(daemon.send("POST", "/api/v1/lists", body: #"{"name":"Errands"}"#)) as? [String: Any])?["id"] as? String)
    #expect(daemon.send("PUT", "/api/v1/lists/\(list)/places/\(placeID)").status == 200)
    #expect(daemon.send("PUT", "/api/v1/lists/nope/places/\(placeID)").status == 404)
    let lists = daemon.json(daemon.send("GET", "/api/v1/lists")) as? [[String: Any]]
    #expect(lists?.first { $0["name"] as? String == "Errands" }?["places"] as? [String] == [placeID])
    #expect(daemon.send("DELETE", "/api/v1/lists/\(list)/places/\(placeID)").status == 200)
  }

  @Test func placesAndListsAreDeletedFromThePageAndAPlaceATaskUsesIsRefused() throws {
    let daemon = try DaemonHarness()
    let text = { (response: HTTPResponse) in String(decoding: response.body, as: UTF8.self) }
    let found = daemon.json(daemon.send("GET", "/api/v1/suggestions", query: ["q": "buy milk", "lat": "60.1699", "lon": "24.9384"])) as? [[String: Any]]
    let refs = try #require(found?.prefix(2).compactMap { $0["ref"] as? String })
    let milk = daemon.json(daemon.send("POST", "/api/v1/tasks", body: #"{"title":"Buy milk","locations":[{"ref":"\#(refs[0])"}]}"#)) as? [String: Any]
    let eggs = daemon.json(daemon.send("POST", "/api/v1/tasks", body: #"{"title":"Buy eggs","locations":[{"ref":"\#(refs[1])"}]}"#)) as? [String: Any]
    let place = { (task: [String: Any]?) in ((task?["locations"] as? [[String: Any]])?.first?["place"] as? [String: Any])?["id"] as? String }
    let used = try #require(place(milk))
    let free = try #require(place(eggs))
    let refused = daemon.send("DELETE", "/api/v1/places/\(used)")
    #expect(refused.status == 409 && text(refused).contains("used by"), "\(text(refused))")
    // Free the second place, file it in a list, then delete the list: the place goes with it.
    #expect(daemon.send("DELETE", "/api/v1/tasks/\(try #require(eggs?["id"] as? String))").status == 200)
    let list = try #require((daemon.json(daemon.send("POST", "/api/v1/lists", body: #"{"name":"Shops"}"#)) as? [String: Any])?["id"] as? String)
    #expect(daemon.send("PUT", "/api/v1/lists/\(list)/places/\(free)").status == 200)
    let deleted = daemon.json(daemon.send("DELETE", "/api/v1/lists/\(list)")) as? [String: Any]
    #expect(deleted?["list"] as? String == "Shops")
    #expect((deleted?["placesRemoved"] as? [String])?.count == 1, "its place in no other list and used by no task")
    #expect(daemon.send("DELETE", "/api/v1/lists/\(list)").status == 404)
    #expect(daemon.send("POST", "/api/v1/undo").status == 200, "the list and its place come back")
    #expect((daemon.json(daemon.send("GET", "/api/v1/places")) as? [[String: Any]])?.count == 2)
    #expect(daemon.send("DELETE", "/api/v1/places/\(free)").status == 200)
    #expect((daemon.json(daemon.send("GET", "/api/v1/places")) as? [[String: Any]])?.count == 1)
  }

  @Test func remindLaterNextVisitKeepsTheTaskActiveAndIsRefusedForADoneTask() throws {
    let daemon = try DaemonHarness()
    let task = try #require(daemon.addTask("Buy milk"))
    let answer = daemon.send("POST", "/api/v1/tasks/\(task)/later", body: #"{"nextVisit":true}"#)
    #expect(answer.status == 200)
    #expect((daemon.json(answer) as? [String: Any])?["state"] as? String == "active")
    #expect(daemon.send("POST", "/api/v1/tasks/\(task)/later", body: #"{"nextVisit":true,"seconds":60}"#).status == 400)
    #expect(daemon.send("POST", "/api/v1/tasks/\(task)/done").status == 200)
    let done = daemon.send("POST", "/api/v1/tasks/\(task)/later", body: #"{"nextVisit":true}"#)
    #expect(done.status == 409 && String(decoding: done.body, as: UTF8.self).contains("completed"))
  }
}
