import Foundation
import Testing

/// The README's tour, run as a person would, checking what they see.
@Suite struct CLITourTests {
  @Test func theTourWorksEndToEnd() throws {
    let cli = CLIHarness()
    var result = cli.run("task", "add", "Buy milk", "--at", "60.1699,24.9384", "--radius", "150", "--at", "60.1675,24.9316", "--radius", "80")
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("1. 60.169900,24.938400  r=150 m"))
    #expect(result.stdout.contains("2. 60.167500,24.931600  r=80 m"))

    #expect(cli.run("place", "add", "Alepa Kamppi", "--at", "60.1683,24.9310", "--tag", "grocery").code == 0)
    #expect(cli.run("list", "create", "Groceries").code == 0)
    #expect(cli.run("list", "add", "Groceries", "alepa kamppi").code == 0)
    result = cli.run("task", "add", "Post letter", "--at", "Alepa Kamppi", "--radius", "60")
    #expect(result.stdout.contains("1. Alepa Kamppi (60.168300,24.931000)  r=60 m"), "\(result.stdout)")

    result = cli.run("check", "--at", "60.1683,24.9312")
    #expect(result.code == 0)
    #expect(result.stdout.contains("Post letter") && !result.stdout.contains("Buy milk"))

    #expect(cli.run("task", "done", "buy milk").code == 0)
    result = cli.run("check", "--at", "60.1699,24.9384")
    #expect(result.stdout.contains("Nothing would fire"))
    #expect(cli.run("task", "later", "Post letter", "--for", "2h").stdout.contains("snoozed until"))
    #expect(cli.run("task", "reopen", "Buy milk").code == 0)
    #expect(cli.run("check", "--at", "60.1699,24.9384").stdout.contains("Buy milk"))
  }

  @Test func listingCommandsPrintValidJSON() throws {
    let cli = CLIHarness()
    cli.run("task", "add", "Buy milk", "--at", "60.1699,24.9384")
    cli.run("place", "add", "Café Ekberg", "--at", "60.1633,24.9390", "--tag", "cafe")
    cli.run("list", "create", "Cafés")
    cli.run("list", "add", "Cafés", "Café Ekberg")
    let tasks = try #require(try cli.json("task", "list") as? [[String: Any]])
    #expect(tasks.first?["title"] as? String == "Buy milk")
    let locations = try #require(tasks.first?["locations"] as? [[String: Any]])
    #expect((locations.first?["region"] as? String)?.hasPrefix("wh:") == true)
    let places = try #require(try cli.json("search", "CAFE", "--near", "60.17,24.94") as? [[String: Any]])
    #expect(places.first?["name"] as? String == "Café Ekberg")
    #expect(places.first?["distance"] is Double)
    let lists = try #require(try cli.json("list", "show", "cafes") as? [String: Any])
    #expect((lists["places"] as? [Any])?.count == 1)
    #expect(try cli.json("list", "all") is [Any])
    #expect(try cli.json("place", "list") is [Any])
    #expect(try cli.json("check", "--at", "60.1699,24.9384") is [Any])
    #expect(try cli.json("doctor") is [String: Any])
  }
}
