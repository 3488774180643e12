import Foundation
import Sodium
import Testing
import TestSupport

/// Real processes: two CLIs with separate stores syncing through a folder,
/// and a laptop's CLI syncing with a running daemon.
@Suite(.serialized) struct SyncProcessTests {
  static var cliPath: String { BuiltProduct.path("whilehere") }

  /// Runs the whilehere binary to completion; output and exit status.
  func whilehere(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
    try BuiltProduct.run(Self.cliPath, arguments, environment: environment)
  }

  /// A home, a sync folder and the store options of two machines.
  func twoStoresAndAFolder() throws -> (TemporaryDirectory, [String: String], String, [String], [String]) {
    let directory = TemporaryDirectory()
    try FileManager.default.createDirectory(atPath: directory.file("sync"), withIntermediateDirectories: true)
    return (
      directory, ["HOME": directory.path, "NO_COLOR": "1"], "folder:" + directory.file("sync"),
      ["--store", "file:" + directory.file("a")], ["--store", "file:" + directory.file("b")]
    )
  }

  @Test func twoStoresConvergeThroughAFolder() throws {
    let (directory, environment, folder, a, b) = try twoStoresAndAFolder()
    defer { withExtendedLifetime(directory) {} }
    #expect(try whilehere(a + ["task", "add", "Buy milk", "--at", "60.17,24.94"], environment: environment).status == 0)
    #expect(try whilehere(a + ["list", "create", "Shops"], environment: environment).status == 0)
    #expect(try whilehere(a + ["sync", "--via", folder], environment: environment).output.contains("sent 2"))
    let received = try whilehere(b + ["sync", "--via", folder], environment: environment)
    #expect(received.output.contains("received 2, applied 2"), "\(received.output)")
    #expect(try whilehere(b + ["list", "delete", "Shops"], environment: environment).status == 0)
    _ = try whilehere(b + ["sync", "--via", folder], environment: environment)
    _ = try whilehere(a + ["sync", "--via", folder], environment: environment)
    #expect(try whilehere(a + ["list", "all"], environment: environment).output.contains("No lists"), "the deletion reached a")
    #expect(try whilehere(b + ["task", "list"], environment: environment).output.contains("Buy milk"))
    #expect(try whilehere(a + ["doctor"], environment: environment).output.contains("last contact"), "doctor shows when b was last heard from")
  }

  /// Two machines change the same task and place while apart: different
  /// fields and different tags all survive, on both.
  @Test func editsOfDifferentFieldsAndTagsOnTwoMachinesAllSurvive() throws {
    let (directory, environment, folder, a, b) = try twoStoresAndAFolder()
    defer { withExtendedLifetime(directory) {} }
    #expect(try whilehere(a + ["task", "add", "Buy milk", "--at", "60.17,24.94"], environment: environment).status == 0)
    #expect(try whilehere(a + ["place", "add", "Alepa", "--at", "60.17,24.94", "--tag", "cafe", "--tag", "late"], environment: environment).status == 0)
    _ = try whilehere(a + ["sync", "--via", folder], environment: environment)
    _ = try whilehere(b + ["sync", "--via", folder], environment: environment)
    #expect(try whilehere(a + ["task", "edit", "Buy milk", "--notes", "oat, 2 litres"], environment: environment).status == 0)
    #expect(try whilehere(a + ["place", "tag", "Alepa", "work"], environment: environment).status == 0)
    #expect(try whilehere(b + ["task", "done", "Buy milk"], environment: environment).status == 0)
    #expect(try whilehere(b + ["place", "untag", "Alepa", "cafe"], environment: environment).status == 0)
    for store in [a, b, a] { _ = try whilehere(store + ["sync", "--via", folder], environment: environment) }
    for store in [a, b] {
      let task = try whilehere(store + ["--json", "task", "show", "Buy milk"], environment: environment).output
      #expect(task.contains("oat, 2 litres") && task.contains("completed"), "\(task)")
      let place = try whilehere(store + ["--json", "place", "show", "Alepa"], environment: environment).output
      let tags = (try JSONSerialization.jsonObject(with: Data(place.utf8)) as? [String: Any])?["tags"] as? [String]
      #expect(tags == ["late", "work"], "\(place)")
    }
  }

  @Test func aLaptopSyncsWithARunningDaemon() throws {
    let directory = TemporaryDirectory()
    let hash = try Argon2idHasher(operations: 1, memoryBytes: 8192).hash("alice-secret")
    let config = directory.write(
      "config.json",
      #"{"store": "file:\#(directory.file("server"))", "notify": [], "server": {"listen": "127.0.0.1:0"}, "people": {"alice": {"password": "\#(hash)"}}}"#)
    let tests = DaemonTests()
    let output = directory.file("daemon.out")
    let daemon = try tests.start(["--config", config], output: output)
    defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
    #expect(tests.waitFor("ready:", in: output, process: daemon))
    let log = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    let base = try #require(log.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) })
    let environment = ["HOME": directory.path, "NO_COLOR": "1", "WHILEHERE_PASSWORD": "alice-secret"]
    let laptop = ["--store", "file:" + directory.file("laptop")]
    let hub = "server:" + base.replacingOccurrences(of: "http://", with: "http://alice@")
    #expect(try whilehere(laptop + ["task", "add", "Post letter", "--at", "60.17,24.94"], environment: environment).status == 0)
    let first = try whilehere(laptop + ["sync", "--via", hub], environment: environment)
    #expect(first.status == 0 && first.output.contains("sent 1"), "\(first.output)")
    // The daemon has it, and a task added there comes back to the laptop.
    let client = TestHTTPClient()
    let listed = try client.send("GET", base + "/api/v1/tasks", user: "alice", password: "alice-secret")
    #expect(listed.text.contains("Post letter"))
    #expect(try client.send("POST", base + "/api/v1/tasks", body: Data(#"{"title":"Buy milk","locations":[{"at":"60.16,24.93"}]}"#.utf8), user: "alice", password: "alice-secret").status == 201)
    let second = try whilehere(laptop + ["sync", "--via", hub], environment: environment)
    #expect(second.output.contains("received 1, applied 1"), "\(second.output)")
    #expect(try whilehere(laptop + ["task", "list"], environment: environment).output.contains("Buy milk"))
    let wrong = try whilehere(laptop + ["sync", "--via", hub], environment: environment.merging(["WHILEHERE_PASSWORD": "nope"]) { $1 })
    #expect(wrong.status != 0 && wrong.output.contains("401"), "\(wrong.output)")
    kill(daemon.processIdentifier, SIGTERM)
    daemon.waitUntilExit()
  }

  /// The CLI with the daemon's own config, while the daemon holds the
  /// store: no lock error; it goes through the daemon as the one person, and
  /// the daemon's local access file goes when it stops.
  @Test func theCLIGoesThroughTheDaemonHoldingItsStore() throws {
    let directory = TemporaryDirectory()
    let hash = try Argon2idHasher(operations: 1, memoryBytes: 8192).hash("alice-secret")
    let store = directory.file("server")
    let config = directory.write(
      "config.json",
      #"{"store": "file:\#(store)", "notify": [], "server": {"listen": "127.0.0.1:0"}, "people": {"alice": {"password": "\#(hash)"}}}"#)
    let tests = DaemonTests()
    let output = directory.file("daemon.out")
    let daemon = try tests.start(["--config", config], output: output)
    defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
    #expect(tests.waitFor("ready:", in: output, process: daemon))
    let local = store + "/daemon.local.json"
    let attributes = try FileManager.default.attributesOfItem(atPath: local)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let environment = ["HOME": directory.path, "NO_COLOR": "1", "WHILEHERE_STORE_WAIT": "0.5"]
    let added = try whilehere(["--config", config, "task", "add", "Post letter", "--at", "60.17,24.94"], environment: environment)
    #expect(added.status == 0, "\(added.output)")
    let log = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    let base = try #require(log.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) })
    let listed = try TestHTTPClient().send("GET", base + "/api/v1/tasks", user: "alice", password: "alice-secret")
    #expect(listed.text.contains("Post letter"), "the task is in alice's store, which the daemon watches")
    let doctor = try whilehere(["--config", config, "doctor"], environment: environment)
    #expect(doctor.output.contains("remote"), "\(doctor.output)")
    // Only the token itself passes: a wrong one is refused.
    let token = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: local))) as? [String: Any]
    #expect((token?["token"] as? String)?.count == 64)
    #expect(try TestHTTPClient().send("GET", base + "/api/v1/tasks", user: "alice", password: String(repeating: "0", count: 64)).status == 401)
    kill(daemon.processIdentifier, SIGTERM)
    daemon.waitUntilExit()
    #expect(!FileManager.default.fileExists(atPath: local))
  }
}

/// Ctrl-C during a long import: the finished chunks stay, the same command continues.
@Suite(.serialized) struct ImportInterruptTests {
  @Test func ctrlCStopsAnImportThatTheSameCommandFinishes() throws {
    let directory = TemporaryDirectory()
    let rows = (0..<3000).map { "Kahvila \($0),,https://www.google.com/maps/place/x\($0),," }.joined(separator: "\n")
    let csv = directory.write("Big.csv", "Title,Note,URL,Tags,Comment\n,,,,\n" + rows + "\n")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: SyncProcessTests.cliPath)
    process.arguments = ["--store", "file:" + directory.file("store"), "import", "list", csv, "--json"]
    process.environment = ["HOME": directory.path, "NO_COLOR": "1"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // A real process: wait for its first progress line, then press Ctrl-C.
    var seen = Data()
    while !String(decoding: seen, as: UTF8.self).contains("progress") {
      let chunk = errors.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      seen.append(chunk)
    }
    kill(process.processIdentifier, SIGINT)
    seen.append(errors.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    let text = String(decoding: seen, as: UTF8.self)
    #expect(process.terminationStatus == 130, "\(text.suffix(300))")
    #expect(text.contains("import cancelled after"))
    let again = try SyncProcessTests().whilehere(["--store", "file:" + directory.file("store"), "import", "list", csv], environment: ["HOME": directory.path, "NO_COLOR": "1"])
    #expect(again.status == 0 && again.output.contains("Imported 3000 rows"), "\(again.output)")
  }
}
