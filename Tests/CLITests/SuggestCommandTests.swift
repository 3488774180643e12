import Foundation
import Testing
import TestSupport

@Suite struct SuggestCommandTests {
  @Test func milkNearTheStationSuggestsShopsWithDistances() throws {
    let cli = CLIHarness()
    let result = cli.run("suggest", "buy milk", "--near", "60.1699,24.9384", "--limit", "3")
    #expect(result.code == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { $0.contains("shop=supermarket") || $0.contains("shop=convenience") })
    let json = try #require(try cli.json("suggest", "coffee", "--near", "60.1699,24.9384") as? [[String: Any]])
    #expect(json.first?["category"] as? String == "amenity=cafe")
    let distances = json.compactMap { $0["distance"] as? Double }
    #expect(distances == distances.sorted())
  }

  @Test func suggestionsSayWhetherThePlaceIsOpenNowByItsOpeningHours() throws {
    let cli = CLIHarness()
    func cafes(at time: String) throws -> [[String: Any]] {
      let result = cli.run(
        ["suggest", "coffee", "--near", "60.1699,24.9384", "--limit", "10", "--json"],
        extraEnvironment: ["WHILEHERE_CLOCK": "manual:" + time, "TZ": "Europe/Helsinki"])
      #expect(result.code == 0, "\(result.stderr)")
      return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }
    // A Wednesday: 12:00 and 04:00 in Helsinki (UTC+2).
    let noon = try cafes(at: "2026-12-02T10:00:00Z")
    let night = try cafes(at: "2026-12-02T02:00:00Z")
    let withHours = noon.filter { $0["hours"] != nil }
    #expect(!withHours.isEmpty, "the embedded places carry OpenStreetMap's opening_hours")
    #expect(withHours.contains { $0["open"] as? Bool == true })
    #expect(night.contains { $0["open"] as? Bool == false })
    #expect(noon.filter { $0["hours"] == nil }.allSatisfy { $0["open"] == nil }, "no hours: nothing is said")
    let text = cli.run(
      ["suggest", "coffee", "--near", "60.1699,24.9384", "--limit", "10"], extraEnvironment: ["WHILEHERE_CLOCK": "manual:2026-12-02T02:00:00Z", "TZ": "Europe/Helsinki"])
    #expect(text.stdout.contains("closed now"))
  }

  @Test func withoutAPositionSuggestionsComeFromAroundSavedPlaces() throws {
    let cli = CLIHarness()
    #expect(cli.run("suggest", "buy milk").code == 64, "no position and no saved place: say what to give")
    #expect(cli.run("place", "add", "Work", "--at", "60.1699,24.9384").code == 0)
    let json = try #require(try cli.json("suggest", "buy milk", "--limit", "3") as? [[String: Any]])
    #expect(json.count == 3)
    #expect(json.allSatisfy { ($0["reason"] as? String)?.hasSuffix("near your Work") == true })
    let distances = json.compactMap { $0["distance"] as? Double }
    #expect(distances == distances.sorted() && (distances.last ?? .infinity) <= 1000)
  }

  @Test func addingATaskFromSuggestionsSavesOnePinPerPlace() throws {
    let cli = CLIHarness()
    var result = cli.run("task", "add", "Buy milk", "--suggest", "--near", "60.1699,24.9384", "--pick", "1,2", "--radius", "80")
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("r=80 m"))
    result = cli.run("task", "add", "Buy eggs", "--suggest", "--near", "60.1699,24.9384", "--pick", "1")
    #expect(result.code == 0, "\(result.stderr)")
    let places = try #require(try cli.json("place", "list") as? [[String: Any]])
    #expect(places.count == 2, "the shop picked twice is one saved place")
    #expect(places.allSatisfy { ($0["provider"] as? String)?.hasPrefix("osm:") == true })
  }

  @Test func aBadPickChangesNothing() {
    let cli = CLIHarness()
    cli.run("task", "add", "Buy milk", "--at", "60,24")
    let before = cli.storeBytes()
    for pick in ["0", "99", "x"] {
      let result = cli.run("task", "add", "Buy milk", "--suggest", "--near", "60.1699,24.9384", "--pick", pick)
      #expect(result.code == 65 && result.stderr.contains("invalid --pick"), "\(pick): \(result.stderr)")
    }
    let noPick = cli.run("task", "add", "Buy milk", "--suggest", "--near", "60.1699,24.9384")
    #expect(noPick.code == 64 && noPick.stderr.contains("--pick"))
    let tooSmall = cli.run("task", "add", "Buy milk", "--suggest", "--near", "60.1699,24.9384", "--pick", "1", "--radius", "5")
    #expect(tooSmall.code == 65)
    #expect(cli.storeBytes() == before)
  }

  @Test func anUnknownPlaceProviderIsNamed() {
    let cli = CLIHarness()
    let result = cli.run("suggest", "milk", "--near", "60.17,24.94", extraEnvironment: ["WHILEHERE_PLACES": "overpas:http://x"])
    #expect(result.code == 78)
    #expect(result.stderr.contains("unknown places provider 'overpas'"))
  }
}

@Suite struct ImportCommandTests {
  @Test(.enabled(if: SharedData.available, "needs ../shared/data beside the project")) func importingTheFixtureListAndABrokenFile() throws {
    let cli = CLIHarness()
    let path = "../shared/data/takeout/Groceries.csv"
    try #require(FileManager.default.fileExists(atPath: path), "needs ../shared/data/takeout")
    let result = cli.run("import", "list", path, "--json")
    #expect(result.code == 0, "\(result.stderr)")
    let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect((summary["matched"] as? Int ?? 0) >= 10 && summary["duplicates"] as? Int == 1)
    let before = cli.storeBytes()
    let broken = NSTemporaryDirectory() + "broken-\(UUID().uuidString).csv"
    _ = FileManager.default.createFile(atPath: broken, contents: Data("Title,Note,URL\nA,\"open\n".utf8))
    let failed = cli.run("import", "list", broken)
    #expect(failed.code == 65 && failed.stderr.contains(":2: a quoted field is never closed"))
    #expect(cli.storeBytes() == before)
  }
}

@Suite struct PlaceRefreshCommandTests {
  @Test func refreshRenewsSuggestedPlacesAndSaysSo() throws {
    let cli = CLIHarness()
    #expect(cli.run("task", "add", "Buy milk", "--suggest", "--near", "60.1699,24.9384", "--pick", "1").code == 0)
    cli.run("place", "add", "My own spot", "--at", "60.17,24.94")
    let result = cli.run("place", "refresh")
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Refreshed 1 place."), "a place of your own has no provider data to refresh")
  }
}

/// `task add --only-while-open` from the map data: the place keeps its
/// opening hours, `task show` and `check --at` honour them by local time,
/// and `task edit --any-time` turns it off.
@Suite struct OnlyWhileOpenCommandTests {
  @Test func aTaskOnlyWhileOpenWaitsForItsPlaceToOpen() throws {
    let cli = CLIHarness()
    let night = ["WHILEHERE_CLOCK": "manual:2026-12-02T02:00:00Z", "TZ": "Europe/Helsinki"]
    let noon = ["WHILEHERE_CLOCK": "manual:2026-12-02T10:00:00Z", "TZ": "Europe/Helsinki"]
    let found = cli.run(["suggest", "coffee", "--near", "60.1699,24.9384", "--limit", "10", "--json"], extraEnvironment: night)
    let cafes = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [[String: Any]])
    let pick = try #require(cafes.firstIndex { $0["open"] as? Bool == false }, "a cafe closed at 04:00 with its hours")
    let cafe = cafes[pick]
    let at = "\(try #require(cafe["lat"] as? Double)),\(try #require(cafe["lon"] as? Double))"
    let added = cli.run(
      ["task", "add", "Coffee beans", "--suggest", "--near", "60.1699,24.9384", "--pick", "\(pick + 1)", "--only-while-open"],
      extraEnvironment: night)
    #expect(added.code == 0, "\(added.stderr)")
    #expect(!added.stderr.contains("no opening hours"), "the saved place kept its hours")
    let shown = cli.run(["task", "show", "Coffee beans"], extraEnvironment: night)
    #expect(shown.stdout.contains("only while open") && shown.stdout.contains("closed now: waits"), "\(shown.stdout)")
    let checkAt = { (environment: [String: String]) throws -> [[String: Any]] in
      let result = cli.run(["check", "--at", at, "--json"], extraEnvironment: environment)
      #expect(result.code == 0, "\(result.stderr)")
      return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }
    #expect(try checkAt(night).isEmpty, "closed at night: nothing would fire there")
    let said = cli.run(["check", "--at", at], extraEnvironment: night).stdout
    #expect(said.contains("Nothing would fire") && said.contains("Coffee beans") && said.contains("waits: its place is closed now"), "\(said)")
    #expect(try checkAt(noon).count == 1, "open at noon")
    let json = try #require(try cli.json("task", "show", "Coffee beans") as? [String: Any])
    #expect(json["onlyWhileOpen"] as? Bool == true)
    #expect(cli.run("task", "edit", "Coffee beans", "--only-while-open", "--any-time").code == 64)
    #expect(cli.run("task", "edit", "Coffee beans", "--any-time").code == 0)
    #expect(try checkAt(night).count == 1, "any time: it fires at night too")
  }

  @Test func aTaskOnlyWhileOpenAtAPlaceWithoutHoursSaysItCountsAsOpen() throws {
    let cli = CLIHarness()
    let added = cli.run("task", "add", "Buy milk", "--at", "60.1699,24.9384", "--only-while-open")
    #expect(added.code == 0, "\(added.stderr)")
    #expect(added.stderr.contains("no place of this task has opening hours known here"))
  }
}
