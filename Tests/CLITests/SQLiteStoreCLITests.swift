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
    #expect(listed.stdout.contains("Buy milk"), "\(listed.stdout)\(listed.stderr)")
    #expect(cli.run("--store", store, "task", "done", "Buy milk").code == 0)
    #expect(cli.run("--store", store, "task", "list", "--state", "completed").stdout.contains("Buy milk"))
    let doctor = cli.run("--store", store, "doctor")
    #expect(doctor.stdout.contains("sqlite"), "\(doctor.stdout)")
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
