import CLI
import Composition
import Foundation
import Testing

/// `sqlite:PATH` chosen by config (here the flag) works for everyday
/// commands, and `forget` removes its files and nothing beside them.
@Suite struct SQLiteStoreCLITests {
  @Test func everydayCommandsWorkOnASQLiteStore() throws {
    let cli = CLIHarness()
    let store = "sqlite:" + cli.home + "/db/whilehere.sqlite"
    #expect(cli.run("--store", store, "place", "add", "Alepa", "--at", "60.1699,24.9384", "--tag", "grocery").code == 0)
    #expect(cli.run("--store", store, "task", "add", "Buy milk", "--at", "Alepa").code == 0)
    let listed = cli.run("--store", store, "task", "list")
    #expect(listed.stdout.contains("Buy milk") && listed.stdout.contains("Alepa (60.169900,24.938400)"), "\(listed.stdout)\(listed.stderr)")
    // A task written in place at a saved place has its circle there (it had none).
    let checked = cli.run("--store", store, "check", "--at", "60.1699,24.9384")
    #expect(checked.stdout.contains("Buy milk"), "\(checked.stdout)\(checked.stderr)")
    #expect(cli.run("--store", store, "task", "done", "Buy milk").code == 0)
    #expect(cli.run("--store", store, "task", "list", "--state", "completed").stdout.contains("Buy milk"))
    let doctor = cli.run("--store", store, "doctor")
    #expect(doctor.stdout.contains("sqlite"), "\(doctor.stdout)")
  }

  /// `check`, `task show`, `place show` and `task list` read only what
  /// they name from SQLite; they print what the FileStore's whole state
  /// prints for the same commands.
  @Test func commandsThatReadAPartPrintWhatTheWholeStatePrints() throws {
    let cli = CLIHarness()
    let stores = ["sqlite:" + cli.home + "/db/whilehere.sqlite", "file:" + cli.home + "/files"]
    for store in stores {
      for command in [
        ["place", "add", "Alepa", "--at", "60.1699,24.9384", "--tag", "grocery"], ["place", "add", "Lidl", "--at", "60.1710,24.9400"],
        ["list", "create", "Groceries"], ["list", "add", "Groceries", "Alepa"],
        ["task", "add", "Buy milk", "--at", "Alepa", "--radius", "150"], ["task", "add-place", "Buy milk", "--at", "Lidl"],
        ["task", "add", "Post letters", "--at", "60.17,24.94", "--radius", "300"], ["place", "edit", "Lidl", "--to", "60.1702,24.9390"],
        ["task", "add", "Far errand", "--at", "61.5,23.8"], ["task", "done", "Far errand"],
        ["place", "add", "Prisma Kamppi", "--at", "60.1692,24.9328"], ["place", "add", "Prisma Itäkeskus", "--at", "60.2103,25.0814"],
        ["place", "add", "K-Market Kamppi", "--at", "60.1688,24.9310"],
      ] {
        let result = cli.run(["--store", store] + command)
        #expect(result.code == 0, "\(command): \(result.stderr)")
      }
    }
    // Ids differ between the two stores: each command by id is run with each store's own.
    func first(_ what: String, in store: String) throws -> String {
      let listed = try JSONSerialization.jsonObject(with: Data(cli.run("--store", store, what, "list", "--json").stdout.utf8)) as? [[String: Any]]
      return try #require(listed?.first?["id"] as? String)
    }
    let task = try stores.map { try first("task", in: $0) }, place = try stores.map { try first("place", in: $0) }
    for command in [
      ["check", "--at", "60.1700,24.9386"], ["check", "--at", "61.5,23.8"], ["task", "show", "TASK"], ["place", "show", "PLACE"],
      ["task", "list"], ["task", "list", "--state", "done"], ["task", "show", "Buy milk"], ["place", "show", "Lidl"],
    ] {
      func on(_ index: Int) -> [String] {
        ["--store", stores[index]] + command.map { $0 == "TASK" ? task[index] : $0 == "PLACE" ? place[index] : $0 }
      }
      let (sqlite, file) = (cli.run(on(0)), cli.run(on(1)))
      #expect(sqlite.code == 0 && !sqlite.stdout.isEmpty, "\(command): \(sqlite.stderr)")
      // Ids differ between the two stores; everything else must not.
      func plain(_ text: String) -> String { text.replacingOccurrences(of: #"\b[0-9a-f]{12}\b"#, with: "ID", options: .regularExpression) }
      #expect(plain(sqlite.stdout) == plain(file.stdout), "\(command)")
    }
    // A place named as people name it, found among the names that start so
    // where SQLite indexes them: the same answer, refusal or suggestion as
    // the FileStore's, which reads every name.
    for reference in ["PRISMA  kamppi", "alep", "prisma", "Prisma I", "kamppi", "market", "Lidll", "Ä", "xyz"] {
      let (sqlite, file) = (cli.run("--store", stores[0], "place", "show", reference), cli.run("--store", stores[1], "place", "show", reference))
      // Ids differ, and so does the order of the places an ambiguous name lists (by id).
      func plain(_ text: String) -> String {
        text.replacingOccurrences(of: #"\b[0-9a-f]{12}\b"#, with: "ID", options: .regularExpression)
          .replacingOccurrences(of: #"ID \([^)]*\)(, ID \([^)]*\))*"#, with: "LISTED", options: .regularExpression)
          + text.matches(of: #/\(([^)]*)\)/#).map { String($0.1) }.sorted().joined(separator: "|")
      }
      #expect(sqlite.code == file.code && plain(sqlite.stdout) == plain(file.stdout) && plain(sqlite.stderr) == plain(file.stderr),
        "\(reference): \(sqlite.code) \(sqlite.stdout)\(sqlite.stderr) ≠ \(file.code) \(file.stdout)\(file.stderr)")
    }
  }

  /// A damaged row is reported by every command that reads it, and by `doctor`.
  @Test func aDamagedRowIsReportedByWhatReadsIt() throws {
    let cli = CLIHarness()
    let path = cli.home + "/db/whilehere.sqlite"
    #expect(cli.run("--store", "sqlite:" + path, "task", "add", "Buy milk", "--at", "60.17,24.94").code == 0)
    #expect(cli.run("--store", "sqlite:" + path, "place", "add", "Alepa", "--at", "60.17,24.94").code == 0)
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = [
      "python3", "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE records SET record=x'7b7b' WHERE owner LIKE 'task/%'\"); c.commit(); print(c.execute(\"SELECT owner FROM records WHERE owner LIKE 'place/%'\").fetchone()[0][6:])",
      path,
    ]
    let output = Pipe()
    python.standardOutput = output
    try python.run()
    let place = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    python.waitUntilExit()
    for command in [["task", "list", "--json"], ["check", "--at", "60.17,24.94"], ["place", "list"], ["doctor"]] {
      let result = cli.run(["--store", "sqlite:" + path] + command)
      #expect(result.code != 0 && (result.stderr + result.stdout).contains("record row 1"), "\(command): \(result.stdout)\(result.stderr)")
    }
    // What does not read it still answers (a place by its id, a name is
    // looked for among all; the text listing reads the listings table).
    let listed = cli.run("--store", "sqlite:" + path, "task", "list")
    #expect(listed.code == 0 && listed.stdout.contains("Buy milk"), "\(listed.stdout)\(listed.stderr)")
    let shown = cli.run("--store", "sqlite:" + path, "place", "show", place)
    #expect(shown.code == 0 && shown.stdout.contains("Alepa"), "\(place): \(shown.stderr)")
  }

  /// A task named by its title (or a prefix of it) is found among the
  /// tasks and read with its own places, not with every place: a damaged
  /// place no task uses does not stop `task show "Buy milk"`, while a
  /// command that reads every place still reports it.
  @Test func aTaskNamedByTitleIsReadWithItsPlacesAlone() throws {
    let cli = CLIHarness()
    let path = cli.home + "/db/whilehere.sqlite"
    for command in [["place", "add", "Alepa", "--at", "60.17,24.94"], ["place", "add", "Lidl", "--at", "60.18,24.95"], ["task", "add", "Buy milk", "--at", "Alepa"]] {
      #expect(cli.run(["--store", "sqlite:" + path] + command).code == 0, "\(command)")
    }
    let lidl = try JSONSerialization.jsonObject(with: Data(cli.run("--store", "sqlite:" + path, "place", "show", "Lidl", "--json").stdout.utf8))
    let id = try #require((lidl as? [String: Any])?["id"] as? String)
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    python.arguments = [
      "python3", "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); n=c.execute(\"UPDATE records SET record=x'7b7b' WHERE owner=?\", ('place/'+sys.argv[2],)).rowcount; c.commit(); sys.exit(0 if n else 1)",
      path, id,
    ]
    try python.run()
    python.waitUntilExit()
    #expect(python.terminationStatus == 0)
    #expect(cli.run("--store", "sqlite:" + path, "place", "list").code != 0, "the damaged place is reported by what reads every place")
    for reference in ["Buy milk", "buy"] {
      let shown = cli.run("--store", "sqlite:" + path, "task", "show", reference)
      #expect(shown.code == 0 && shown.stdout.contains("Buy milk") && shown.stdout.contains("Alepa"), "\(reference): \(shown.stdout)\(shown.stderr)")
    }
    // A place named by its name (or its start) is found among the names
    // alone and read alone: the damaged place does not stop it.
    for reference in ["Alepa", "ale"] {
      let shown = cli.run("--store", "sqlite:" + path, "place", "show", reference)
      #expect(shown.code == 0 && shown.stdout.contains("Alepa"), "\(reference): \(shown.stdout)\(shown.stderr)")
    }
    let missing = cli.run("--store", "sqlite:" + path, "place", "show", "Alepo")
    #expect(missing.code != 0 && missing.stderr.contains("Alepa"), "a slip is answered with the nearest name: \(missing.stderr)")
  }

  @Test func forgetRemovesTheDatabaseAndWhatSQLiteKeepsBesideIt() throws {
    let cli = CLIHarness()
    let folder = cli.home + "/db"
    let store = "sqlite:" + folder + "/whilehere.sqlite"
    #expect(cli.run("--store", store, "task", "add", "Buy milk", "--at", "60.17,24.94").code == 0)
    _ = FileManager.default.createFile(atPath: folder + "/notes.txt", contents: Data("mine".utf8))
    let erased = cli.run("--store", store, "forget", "--yes")
    #expect(erased.code == 0, "\(erased.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["notes.txt"])
    #expect(cli.run("--store", store, "task", "list").stdout.hasPrefix("No tasks"))
  }
}

/// `store migrate --to`: every stamp and the replica id move; the old store stays.
@Suite struct StoreMigrateTests {
  @Test func aFileStoreMovesToSQLiteAndBackWithEveryStamp() throws {
    let cli = CLIHarness()
    #expect(cli.run("place", "add", "Alepa", "--at", "60.1699,24.9384", "--tag", "grocery").code == 0)
    #expect(cli.run("list", "create", "Groceries").code == 0)
    #expect(cli.run("list", "add", "Groceries", "Alepa").code == 0)
    #expect(cli.run("task", "add", "Buy milk", "--at", "Alepa").code == 0)
    #expect(cli.run("task", "add", "Post letters", "--at", "60.17,24.94").code == 0)
    #expect(cli.run("task", "done", "Post letters").code == 0)
    #expect(cli.run("task", "add", "Old errand", "--at", "60.16,24.93").code == 0)
    #expect(cli.run("task", "delete", "Old errand").code == 0)
    let sqlite = "sqlite:" + cli.home + "/moved/store.sqlite"
    let moved = cli.run("store", "migrate", "--to", sqlite)
    #expect(moved.code == 0, "\(moved.stderr)")
    #expect(moved.stdout.contains("with their stamps and replica id"))
    let original = try cli.json("task", "list") as? [[String: Any]]
    let copy = try JSONSerialization.jsonObject(with: Data(cli.run("--store", sqlite, "task", "list", "--json").stdout.utf8)) as? [[String: Any]]
    #expect(original?.map { $0["id"] as? String } == copy?.map { $0["id"] as? String })
    #expect(copy?.map { $0["state"] as? String } == ["active", "completed"])
    let doctor = cli.run("--store", sqlite, "doctor", "--json").stdout
    let fileDoctor = cli.run("doctor", "--json").stdout
    func replica(_ text: String) -> String? { text.range(of: #""replica"\s*:\s*"[^"]+""#, options: .regularExpression).map { String(text[$0]) } }
    #expect(replica(doctor) != nil && replica(doctor) == replica(fileDoctor), "the replica id moved: \(String(describing: replica(doctor)))")

    let back = "file:" + cli.home + "/back"
    #expect(cli.run("--store", sqlite, "store", "migrate", "--to", back).code == 0)
    // Folded into a snapshot with its sidecar: commands read a few records, not a log of everything moved.
    let files = try FileManager.default.contentsOfDirectory(atPath: cli.home + "/back")
    #expect(files.contains { $0.hasPrefix("keys-") } && files.contains { $0.hasPrefix("snapshot-") }, "\(files)")
    let again = try JSONSerialization.jsonObject(with: Data(cli.run("--store", back, "list", "show", "Groceries", "--json").stdout.utf8))
    #expect("\(again)".contains("Alepa"), "\(again)")
    #expect(cli.run("task", "list").stdout.contains("Buy milk"), "the old store is left as it was")
  }

  @Test func aStoreThatAlreadyHoldsDataIsNotMigratedInto() throws {
    let cli = CLIHarness()
    #expect(cli.run("task", "add", "Buy milk", "--at", "60.17,24.94").code == 0)
    let sqlite = "sqlite:" + cli.home + "/other.sqlite"
    #expect(cli.run("--store", sqlite, "task", "add", "Someone else's", "--at", "60.17,24.94").code == 0)
    let refused = cli.run("store", "migrate", "--to", sqlite)
    #expect(refused.code != 0)
    #expect(refused.stderr.contains("already holds data"), "\(refused.stderr)")
    #expect(cli.run("--store", sqlite, "task", "list").stdout.contains("Someone else's"))
    #expect(!cli.run("--store", sqlite, "task", "list").stdout.contains("Buy milk"))
  }
}
