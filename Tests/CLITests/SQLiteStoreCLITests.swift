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
