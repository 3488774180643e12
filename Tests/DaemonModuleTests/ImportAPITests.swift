@testable import Daemon
import Foundation
import Testing

/// The map page's import: a saved list uploaded as the body, imported in
/// the background, then its rows settled one by one through the API.
@Suite struct ImportAPITests {
  static let csv = "Title,Note,URL,Tags,Comment\n,,,,\nHesburger,,u1,,\nAlepa,,u2,,\nQwerty Zxcv,,u3,,\nK-Market,,u4,,\n"

  func imported(_ daemon: DaemonHarness, body: String = csv, file: String = "saved.csv") throws -> [String: Any] {
    let started = daemon.send("POST", "/api/v1/imports", body: body, query: ["file": file, "list": "Errands"])
    #expect(started.status == 202, "\(String(decoding: started.body, as: UTF8.self))")
    #expect(try #require(daemon.host.people.byName["alice"]).importJob.waitUntilIdle())
    return try #require(daemon.json(daemon.send("GET", "/api/v1/imports/current")) as? [String: Any])
  }

  @Test func anUploadedListIsImportedAndItsRowsAreSettledOneByOne() throws {
    let daemon = try DaemonHarness()
    let status = try imported(daemon)
    #expect(status["state"] as? String == "finished")
    #expect(status["list"] as? String == "Errands")
    #expect(status["done"] as? Int == 4)
    var rows = try #require(daemon.json(daemon.send("GET", "/api/v1/imports/review")) as? [[String: Any]])
    let titles = rows.compactMap { $0["title"] as? String }
    #expect(titles.contains("Hesburger") && titles.contains("Qwerty Zxcv"), "\(titles)")
    let hesburger = try #require(rows.first { $0["title"] as? String == "Hesburger" })
    let candidates = try #require(hesburger["candidates"] as? [[String: Any]])
    #expect(candidates.count >= 2)
    #expect(candidates.contains { $0["address"] is String }, "candidates carry addresses to tell branches apart")
    let id = try #require(hesburger["id"] as? String)
    #expect(daemon.send("POST", "/api/v1/imports/review/\(id)", body: #"{"action":"accept","candidate":9}"#).status == 400)
    #expect(daemon.send("POST", "/api/v1/imports/review/\(id)", body: #"{"action":"accept","candidate":1}"#).status == 200)
    let nowhere = try #require(rows.first { $0["title"] as? String == "Qwerty Zxcv" }?["id"] as? String)
    #expect(daemon.send("POST", "/api/v1/imports/review/\(nowhere)", body: #"{"action":"enter","name":"Qwerty's","lat":60.17,"lon":24.94}"#).status == 200)
    rows = try #require(daemon.json(daemon.send("GET", "/api/v1/imports/review")) as? [[String: Any]])
    #expect(!rows.contains { ["Hesburger", "Qwerty Zxcv"].contains($0["title"] as? String) }, "settled rows leave the review")
    let lists = daemon.json(daemon.send("GET", "/api/v1/lists")) as? [[String: Any]]
    #expect((lists?.first { $0["name"] as? String == "Errands" }?["places"] as? [String])?.count == 2, "both settled rows' places are in the list")
  }

  @Test func aFileThatIsNotAListFailsClearlyAndChangesNothing() throws {
    let daemon = try DaemonHarness()
    let status = try imported(daemon, body: "this is not a list", file: "notes.csv")
    #expect(status["state"] as? String == "failed")
    #expect((status["error"] as? String)?.contains("header") == true, "\(status)")
    #expect(try daemon.store("alice").operations(since: nil).isEmpty)
    #expect(daemon.send("POST", "/api/v1/imports", body: "x", query: ["file": "../x.csv"]).status == 400)
    #expect(daemon.send("POST", "/api/v1/imports", body: "", query: ["file": "x.csv"]).status == 400)
    #expect(daemon.send("DELETE", "/api/v1/imports/current").status == 409, "nothing runs to cancel")
  }
}
