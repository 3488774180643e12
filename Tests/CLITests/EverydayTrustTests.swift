@testable import CLI
import Foundation
import Testing

/// #13's command items: clean names, finding tasks by name, coordinates,
/// times, picking suggestions, undo.
@Suite struct EverydayTrustTests {
  @Test func titlesLoseControlCharactersAndLineBreaksAndHaveALimit() throws {
    let cli = CLIHarness()
    let added = cli.run("task", "add", "Evil\u{1B}[2J\u{202E} title\nsecond line", "--at", "60,24", "--notes", "line one\nline two\u{07}")
    #expect(added.code == 0, "\(added.stderr)")
    #expect(!added.stdout.contains("\u{1B}[2J"))
    let listing = cli.run("task", "list")
    #expect(listing.stdout.contains("Evil[2J title second line"), "\(listing.stdout)")
    #expect(listing.stdout.split(separator: "\n").count == 2, "one line for the task, one for its place")
    let task = try #require(try cli.json("task", "show", "Evil") as? [String: Any])
    #expect(task["notes"] as? String == "line one\nline two")
    let long = cli.run("task", "add", String(repeating: "x", count: 201), "--at", "60,24")
    #expect(long.code == ExitCode.invalidInput)
    #expect(long.stderr.contains("at most 200 characters; this one has 201"), "\(long.stderr)")
  }

  @Test func aNameFindsTheActiveTaskThenPrefixesThenSaysTheNearest() throws {
    let cli = CLIHarness()
    cli.run("task", "add", "Buy milk", "--at", "60,24")
    #expect(cli.run("task", "done", "Buy milk").code == 0)
    let second = cli.run("task", "add", "Buy milk", "--at", "60.1,24.1")
    #expect(second.code == 0)
    #expect(!second.stderr.contains("already on your list"), "last week's finished one is no twin")
    let twin = cli.run("task", "add", "buy milk", "--at", "60.2,24.2", "--json")
    #expect(twin.stderr.contains("'Buy milk'") && twin.stderr.contains("already on your list"), "\(twin.stderr)")
    let twinID = try #require((try JSONSerialization.jsonObject(with: Data(twin.stdout.utf8)) as? [String: Any])?["id"] as? String)
    #expect(cli.run("task", "show", "Buy milk").stderr.contains("matches several"), "two active ones are ambiguous")
    cli.run("task", "done", twinID)
    // Now one active (the 60.1 one) and two done: the active one is found.
    let shown = cli.run("task", "show", "Buy milk")
    #expect(shown.code == 0, "\(shown.stderr)")
    #expect(shown.stdout.contains("active"), "\(shown.stdout)")
    #expect(cli.run("task", "show", "buy m").stdout.contains("active"), "a prefix of the title")
    #expect(cli.run("task", "show", "milk").stdout.contains("active"), "a word of the title")
    cli.run("task", "add", "Post the parcel", "--at", "60,24")
    #expect(cli.run("task", "show", "parcel post").stdout.contains("Post the parcel"), "words in any order")
    #expect(cli.run("task", "show", "mi").code == ExitCode.notFound, "fewer than three letters pick nothing by words")
    let typo = cli.run("task", "show", "buy mlik")
    #expect(typo.code == ExitCode.notFound)
    #expect(typo.stderr.contains("did you mean 'Buy milk'?"), "\(typo.stderr)")
  }

  /// A listing filtered by state that finds nothing says so, and that
  /// other tasks exist, instead of "No tasks. Add one".
  @Test func anEmptyFilteredListingDoesNotHideTheOtherTasks() throws {
    let cli = CLIHarness()
    #expect(cli.run("task", "list").stdout.hasPrefix("No tasks. Add one"))
    cli.run("task", "add", "Buy milk", "--at", "60,24")
    let snoozed = cli.run("task", "list", "--state", "snoozed")
    #expect(snoozed.stdout.hasPrefix("No snoozed tasks (1 other: whilehere task list)"), "\(snoozed.stdout)")
    #expect(cli.run("task", "list", "--state", "completed").stdout.hasPrefix("No completed tasks"))
  }

  /// `--near` without `--suggest` was met with "needs --at", as if it had
  /// not been typed: it is where suggestions are looked for, and says so.
  @Test func nearWithoutSuggestSaysWhatItIsFor() throws {
    let cli = CLIHarness()
    let added = cli.run("task", "add", "Buy milk", "--near", "60.17,24.94")
    #expect(added.code != 0)
    #expect(added.stderr.contains("--near says where --suggest looks; add --suggest"), "\(added.stderr)")
    #expect(cli.run("task", "list").stdout.hasPrefix("No tasks"), "nothing was added")
  }

  @Test(arguments: ["60.1,abc", "1e400,0", "NaN,0", "abc,24.9"])
  func aBadCoordinateIsCalledOneWhereverItIsGiven(_ text: String) throws {
    let cli = CLIHarness()
    cli.run("place", "add", "Alepa", "--at", "60.17,24.94")
    let before = cli.storeBytes()
    for arguments in [["task", "add", "X", "--at", text], ["place", "add", "Y", "--at", text], ["search", "a", "--near", text], ["check", "--at", text]] {
      let result = cli.run(arguments)
      #expect(result.code == ExitCode.invalidInput, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("invalid coordinate '\(text)'"), "\(arguments): \(result.stderr)")
    }
    #expect(cli.storeBytes() == before)
  }

  @Test func nearAndAtAcceptASavedPlace() throws {
    let cli = CLIHarness()
    cli.run("place", "add", "Home", "--at", "60.17,24.94")
    cli.run("place", "add", "Far away", "--at", "61.5,23.8")
    cli.run("place", "add", "Near by", "--at", "60.171,24.941")
    let search = cli.run("search", "", "--near", "Home")
    #expect(search.code == 0, "\(search.stderr)")
    let lines = search.stdout.split(separator: "\n").map(String.init)
    #expect(lines.firstIndex { $0.contains("Near by") }! < lines.firstIndex { $0.contains("Far away") }!, "\(search.stdout)")
    #expect(cli.run("check", "--at", "Home").code == 0)
  }

  @Test func timesAreLocalAndSnoozesCanEnd() throws {
    let cli = CLIHarness()
    cli.run("task", "add", "Post letter", "--at", "60,24")
    let snoozed = cli.run("task", "later", "Post letter", "--for", "1w", extraEnvironment: ["TZ": "Europe/Helsinki"])
    #expect(snoozed.code == 0, "\(snoozed.stderr)")
    #expect(snoozed.stdout.contains("Snoozed for 7d"))
    #expect(snoozed.stdout.contains("+02:00"), "Helsinki in winter: \(snoozed.stdout)")
    #expect(cli.run("task", "list", extraEnvironment: ["TZ": "UTC"]).stdout.contains("+00:00"))
    let woken = cli.run("task", "wake", "Post letter")
    #expect(woken.code == 0)
    #expect(cli.run("task", "list", "--state", "active").stdout.contains("Post letter"))
    #expect(cli.run("task", "wake", "Post letter").code == ExitCode.invalidInput, "not snoozed any more")
    cli.run("task", "done", "Post letter")
    #expect(cli.run("task", "list", "--state", "completed").stdout.contains("Post letter"))
  }

  @Test func pluralsAreRight() throws {
    let cli = CLIHarness()
    cli.run("list", "create", "Shops")
    cli.run("place", "add", "Alepa", "--at", "60.17,24.94", "--list", "Shops")
    #expect(cli.run("list", "all").stdout.contains("1 place"))
    #expect(!cli.run("list", "all").stdout.contains("place(s)"))
    cli.run("task", "add", "Milk", "--at", "Alepa")
    #expect(cli.run("task", "done", "Milk").stdout.contains("its place is silenced"))
  }

  @Test func pickingSuggestionsReasksAndEnterPicksNone() throws {
    let cli = CLIHarness()
    let arguments = ["task", "add", "Buy milk", "--suggest", "--near", "60.1699,24.9384"]
    let none = cli.run(arguments, terminal: true, input: [""])
    #expect(none.code == 0, "\(none.stderr)")
    #expect(none.stdout.contains("No place picked; nothing was added."))
    #expect(cli.run("task", "list").stdout.hasPrefix("No tasks"))
    let picked = cli.run(arguments, terminal: true, input: ["99", "x", "1 3"])
    #expect(picked.code == 0, "\(picked.stderr)")
    #expect(picked.stdout.contains("'99' is not one of the numbers"), "\(picked.stdout)")
    #expect(picked.stdout.contains("'x' is not one of the numbers"))
    #expect(!picked.stderr.contains("--pick"), "no error about a flag the person never typed")
    let task = try #require(try cli.json("task", "show", "Buy milk") as? [String: Any])
    #expect((task["locations"] as? [Any])?.count == 2)
    let flag = cli.run("task", "add", "Eggs", "--suggest", "--near", "60.1699,24.9384", "--pick", "1,99")
    #expect(flag.code == ExitCode.invalidInput)
    #expect(flag.stderr.contains("--pick"))
    // No terminal to ask at: the error lists what --pick chooses from.
    let script = cli.run("task", "add", "Eggs", "--suggest", "--near", "60.1699,24.9384", "--limit", "3")
    #expect(script.code == ExitCode.usage)
    #expect(script.stderr.contains("--pick") && script.stderr.contains("  1. ") && script.stderr.contains("  3. ") && !script.stderr.contains("  4. "), "\(script.stderr)")
  }

  @Test func deletesAndDoneCanBeUndone() throws {
    let cli = CLIHarness()
    cli.run("list", "create", "Groceries")
    cli.run("place", "add", "Alepa", "--at", "60.17,24.94", "--list", "Groceries")
    cli.run("place", "add", "Lidl", "--at", "60.16,24.93", "--list", "Groceries")
    cli.run("task", "add", "Milk", "--at", "Alepa")
    #expect(cli.run("undo").stderr.contains("nothing to undo"))
    cli.run("task", "done", "Milk")
    let deleted = cli.run("list", "delete", "Groceries")
    #expect(deleted.stdout.contains("- Lidl"), "names each place it removes: \(deleted.stdout)")
    #expect(deleted.stdout.contains("whilehere undo"))
    #expect(cli.run("place", "show", "Lidl").code == ExitCode.notFound)
    #expect(cli.run("undo", "--list").stdout.contains("deleted list 'Groceries' and 1 place only it held"))
    #expect(cli.run("undo").stdout.contains("Undone: deleted list 'Groceries'"))
    let list = cli.run("list", "show", "Groceries").stdout
    #expect(list.contains("Alepa") && list.contains("Lidl"), "\(list)")
    #expect(cli.run("undo").stdout.contains("Undone: marked 'Milk' done"))
    #expect(cli.run("task", "list", "--state", "active").stdout.contains("Milk"))
    cli.run("task", "delete", "Milk")
    cli.run("place", "delete", "Lidl")
    cli.run("undo")
    cli.run("undo")
    #expect(cli.run("task", "show", "Milk").code == 0)
    #expect(cli.run("list", "show", "Groceries").stdout.contains("Lidl"), "the place is back in its list")
  }
}

/// `import review` a person can use on a big import: addresses tell
/// branches apart, a limit, a list filter, a bulk accept, plain JSON.
@Suite struct ImportReviewTests {
  func importEat(_ cli: CLIHarness) throws {
    try FileManager.default.createDirectory(atPath: cli.home, withIntermediateDirectories: true)
    let path = cli.home + "/Eat.csv"
    _ = FileManager.default.createFile(
      atPath: path, contents: Data("Title,Note,URL,Tags,Comment\n,,,,\nHesburger,,u1,,\nAlepa,,u2,,\nQwerty Zxcv,,u3,,\nK-Market,,u4,,\n".utf8))
    #expect(cli.run("import", "list", path).code == 0)
  }

  @Test func reviewShowsAddressesLimitsAndFiltersAndAcceptsInBulk() throws {
    let cli = CLIHarness()
    try importEat(cli)
    let review = cli.run("import", "review", "--limit", "1")
    #expect(review.stdout.contains("Aleksanterinkatu 52"), "a Hesburger's address: \(review.stdout)")
    #expect(review.stdout.contains("… and 3 more"))
    #expect(!review.stdout.contains("Alepa"))
    let all = cli.run("import", "review").stdout
    #expect(all.contains("no candidate: whilehere import search"), "\(all)")
    #expect(!all.contains("place add"))
    #expect(cli.run("import", "review", "--list", "Nope").code == ExitCode.notFound)
    let json = cli.run("import", "review", "--json").stdout
    #expect(!json.contains("\"_0\""))
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    #expect(rows.count == 4)
    #expect(rows.first?["list"] as? String == "Eat")
    let bulk = cli.run("import", "accept", "--first", "--list", "Eat")
    #expect(bulk.stdout.contains("Accepted the first candidate of 3 rows."), "\(bulk.stdout)")
    #expect(cli.run("import", "review", "--json").stdout.contains("Qwerty"), "the row without candidates still waits")
    #expect(cli.run("list", "show", "Eat").stdout.contains("Hesburger"))
  }
}

/// A large import folds the store's log into a snapshot with its sidecar,
/// so the commands after it read a few records, not the whole import.
@Suite struct LargeImportTests {
  @Test func aLargeImportLeavesTheStoreCompacted() throws {
    let cli = CLIHarness()
    try FileManager.default.createDirectory(atPath: cli.home, withIntermediateDirectories: true)
    let path = cli.home + "/Many.csv"
    // 500 rows: a log well past the 64 KiB a store read in parts folds at, when the command closes it.
    let rows = (0..<500).map { "Saved spot \($0),,\"https://maps.google.com/?q=60.1\($0 % 10),24.9\($0 % 7)\",," }
    _ = FileManager.default.createFile(atPath: path, contents: Data(("Title,Note,URL,Tags,Comment\n" + rows.joined(separator: "\n") + "\n").utf8))
    let imported = cli.run("import", "list", path)
    #expect(imported.code == 0, "\(imported.stderr)")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: cli.storeDirectory)) ?? []
    #expect(files.contains { $0.hasPrefix("keys-") } && files.contains { $0.hasPrefix("snapshot-") }, "\(files.sorted())")
    #expect(cli.run("task", "list").code == 0)
  }
}

/// Places anywhere in the map data (the embedded OpenStreetMap extract), by
/// name or by the address OSM carries, offline.
@Suite struct MapPlaceSearchTests {
  @Test func placeSearchFindsByAddressAndByName() throws {
    let cli = CLIHarness()
    let byAddress = cli.run("place", "search", "Mannerheimintie 22")
    #expect(byAddress.code == 0, "\(byAddress.stderr)")
    #expect(byAddress.stdout.contains("Amos Rex"), "\(byAddress.stdout)")
    let byName = cli.run("place", "search", "Stockmann")
    #expect(byName.stdout.hasPrefix("1. Stockmann  shop=department_store"), "the exact name first: \(byName.stdout)")
    #expect(cli.run("place", "search", "Hesburger Kaivokatu").stdout.contains("Kaivokatu"))
    #expect(cli.run("place", "search", "Qwxz Zzyq").stdout.contains("Nothing in the map data"))
  }

  @Test func placeSearchAsJSONGivesADistanceOnlyWhenItKnowsOne() throws {
    let cli = CLIHarness()
    let plain = try #require(try cli.json("place", "search", "Stockmann") as? [[String: Any]])
    #expect(plain.first?["number"] as? Int == 1 && plain.first?["name"] as? String == "Stockmann")
    #expect(plain.allSatisfy { $0["distance"] == nil }, "no --near: no distance, rather than a made-up 0")
    let near = try #require(try cli.json("place", "search", "Stockmann", "--near", "60.17,24.94") as? [[String: Any]])
    #expect((near.first?["distance"] as? Double).map { $0 > 0 } == true)
  }

  @Test func atANameInTheMapDataSavesThatPlaceOnce() throws {
    let cli = CLIHarness()
    let added = cli.run("task", "add", "Buy socks", "--at", "Stockmann")
    #expect(added.code == 0, "\(added.stderr)")
    #expect(added.stdout.contains("Stockmann (60.168294,24.942156)"))
    let ambiguous = cli.run("task", "add", "Burger", "--at", "Hesburger")
    #expect(ambiguous.code == ExitCode.invalidInput)
    #expect(ambiguous.stderr.contains("matches several places in the map data"), "\(ambiguous.stderr)")
    #expect(cli.run("task", "add", "Burger", "--at", "Hesburger Kaivokatu").code == 0)
    cli.run("task", "add", "Return socks", "--at", "Stockmann")
    let places = try #require(try cli.json("place", "list") as? [[String: Any]])
    #expect(places.filter { $0["name"] as? String == "Stockmann" }.count == 1, "one pin per map place")
    let check = cli.run("check", "--at", "Stockmann")
    #expect(check.code == 0, "\(check.stderr)")
    #expect(check.stdout.contains("Buy socks") && check.stdout.contains("Return socks"), "\(check.stdout)")
  }

  /// A branch the map data does not have is answered with one it does.
  @Test func anAtNameNobodyHasSuggestsOneTheMapDataHas() throws {
    let cli = CLIHarness()
    let missing = cli.run("task", "add", "Buy bread", "--at", "K-Supermarket Kamppi")
    #expect(missing.code == ExitCode.notFound)
    #expect(missing.stderr.contains("did you mean 'K-Supermarket "), "\(missing.stderr)")
    #expect(!cli.run("task", "add", "Buy bread", "--at", "Qwxz Zzyq").stderr.contains("did you mean"), "nothing like it: no guess")
  }

  /// A word that only appears further into names (the map data's café
  /// "Kulma" is "Science&coffee+shop" in English, and shops end in
  /// "Shop") is no guess: a person who typed "Shop 1" did not mean Kulma.
  @Test func aWordInsideOtherNamesIsNoGuess() throws {
    let cli = CLIHarness()
    let missing = cli.run("task", "add", "Buy bread", "--at", "Shop 1")
    #expect(missing.code == ExitCode.notFound)
    #expect(missing.stderr.contains("no place matches 'Shop 1'"), "\(missing.stderr)")
    #expect(!missing.stderr.contains("did you mean"), "\(missing.stderr)")
    let branch = cli.run("task", "add", "Buy bread", "--at", "Alepa Kampi")
    #expect(branch.stderr.contains("did you mean 'Alepa "), "a name beginning with the words typed is still offered: \(branch.stderr)")
  }

  /// A typo in the first word of a map name still finds the name meant,
  /// and a word merely starting like one finds no guess.
  @Test func aTypoInAMapNameSuggestsTheNameMeant() throws {
    let cli = CLIHarness()
    let typo = cli.run("task", "add", "Buy socks", "--at", "Stokmann")
    #expect(typo.code == ExitCode.notFound)
    #expect(typo.stderr.contains("did you mean 'Stockmann'?"), "\(typo.stderr)")
    #expect(!cli.run("task", "add", "Buy socks", "--at", "Stoqwxzzy").stderr.contains("did you mean"), "far from every name: no guess")
  }
}
