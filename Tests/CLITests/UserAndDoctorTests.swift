import CLI
import Composition
import Foundation
import Testing
import TestSupport

/// `whilehere user …` keeps people in the config file with Argon2id hashes
/// only; `whilehere doctor` shows what the daemon last reported.
@Suite struct UserAndDoctorTests {
  @Test func addingAPersonStoresOnlyAnArgon2idHashInAPrivateFile() throws {
    let cli = CLIHarness()
    let passwordFile = cli.home + "-pw"
    _ = FileManager.default.createFile(atPath: passwordFile, contents: Data("correct horse battery\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: passwordFile) }
    let added = cli.run("user", "add", "alice", "--password-file", passwordFile, "--device", "phone")
    #expect(added.code == 0, "\(added.stderr)")
    let path = cli.home + "/config/whilehere/config.json"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!text.contains("correct horse"))
    #expect(text.contains("$argon2id$"))
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    let config = try ConfigLoader.load(LaunchOptions(program: .headless, profile: nil, configPath: path, overrides: [:], environment: cli.environment))
    #expect(config.settings.people["alice"]?.devices == ["phone"])
    #expect(Runtime.passwordHasher().verify("correct horse battery", against: config.settings.people["alice"]!.password))
    #expect(cli.run("user", "list").stdout.contains("alice"))
    // Other keys and people survive a change.
    _ = FileManager.default.createFile(atPath: passwordFile, contents: Data("another long one\n".utf8))
    #expect(cli.run("user", "add", "bob", "--password-file", passwordFile).code == 0)
    #expect(cli.run("user", "remove", "alice").code == 0)
    #expect(cli.run("user", "list").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "bob")
    #expect(cli.run("user", "remove", "alice").code == 66)
  }

  /// `--config config.json`: a bare name is a file in the current directory, also when written.
  @Test func aConfigNamedRelativeToTheCurrentDirectoryIsWritten() throws {
    let directory = TemporaryDirectory()
    _ = FileManager.default.createFile(atPath: directory.file("pw"), contents: Data("correct horse battery\n".utf8))
    let (status, output) = try BuiltProduct.run(
      "whilehere", ["--config", "config.json", "user", "add", "alice", "--password-file", "pw"],
      environment: ["HOME": directory.path, "NO_COLOR": "1"], directory: directory.path)
    #expect(status == 0, "\(output)")
    #expect(try String(contentsOfFile: directory.file("config.json"), encoding: .utf8).contains("$argon2id$"))
  }

  @Test func badNamesAndShortPasswordsAreRefused() throws {
    let cli = CLIHarness()
    let passwordFile = cli.home + "-pw"
    _ = FileManager.default.createFile(atPath: passwordFile, contents: Data("short\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: passwordFile) }
    #expect(cli.run("user", "add", "alice", "--password-file", passwordFile).code == 64)
    _ = FileManager.default.createFile(atPath: passwordFile, contents: Data("long enough now\n".utf8))
    let bad = cli.run("user", "add", "Alice Smith", "--password-file", passwordFile)
    #expect(bad.code == 78)
    #expect(bad.stderr.contains("lower-case"))
    #expect(!FileManager.default.fileExists(atPath: cli.home + "/config/whilehere/config.json"))
  }

  @Test func doctorShowsTheDaemonsDeliveryTrouble() throws {
    let cli = CLIHarness()
    try FileManager.default.createDirectory(atPath: cli.storeDirectory, withIntermediateDirectories: true)
    let status = DaemonStatus(
      pid: 4242, updatedAt: Date(timeIntervalSince1970: 1_780_000_000), listening: "http://127.0.0.1:8083", running: true,
      deliveries: ["alice": .init(delivered: 3, retrying: 1, failed: 2, lastError: "notification sink ntfy:https://ntfy.sh/x: the server answered 502")])
    try status.write(to: cli.storeDirectory + "/daemon-status.json")
    let doctor = cli.run("doctor")
    #expect(doctor.stdout.contains("running as pid 4242"))
    #expect(doctor.stdout.contains("alice: 3 delivered, 1 retrying, 2 failed; last error: notification sink ntfy:https://ntfy.sh/x: the server answered 502"))
    let json = try cli.json("doctor") as? [String: Any]
    #expect(((json?["daemon"] as? [String: Any])?["status"] as? [String: Any])?["pid"] as? Int == 4242)
  }
}

/// A daemon killed with -9 never reported "stopped": doctor checks its pid.
@Suite struct DoctorDeadDaemonTests {
  @Test func aReportFromAProcessThatIsGoneSaysSo() throws {
    let cli = CLIHarness()
    cli.run("task", "list")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    let status = DaemonStatus(pid: process.processIdentifier, updatedAt: Date(), listening: "http://127.0.0.1:8080", running: true, deliveries: [:])
    try FileManager.default.createDirectory(atPath: cli.storeDirectory, withIntermediateDirectories: true)
    try status.write(to: cli.storeDirectory + "/daemon-status.json")
    let doctor = cli.run("doctor")
    #expect(doctor.stdout.contains("but pid \(process.processIdentifier) is gone"), "\(doctor.stdout)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(cli.run("doctor", "--json").stdout.utf8)) as? [String: Any])
    #expect((json["daemon"] as? [String: Any])?["alive"] as? Bool == false)
  }
}

/// `whilehere device add` shows a token once and keeps only its hash.
@Suite struct DeviceCommandTests {
  @Test func aDeviceTokenIsShownOnceAndStoredHashed() throws {
    let cli = CLIHarness()
    let passwordFile = cli.home + "-pw"
    _ = FileManager.default.createFile(atPath: passwordFile, contents: Data("correct horse battery\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: passwordFile) }
    #expect(cli.run("device", "add", "alice", "phone").code == ExitCode.config, "no such person yet")
    #expect(cli.run("user", "add", "alice", "--password-file", passwordFile, "--device", "watch").code == 0)
    let added = try #require(try cli.json("device", "add", "alice", "phone") as? [String: Any])
    let token = try #require(added["token"] as? String)
    let path = cli.home + "/config/whilehere/config.json"
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!text.contains(token))
    #expect(text.contains("$wh-device-1$"))
    let config = try ConfigLoader.load(LaunchOptions(program: .headless, profile: nil, configPath: path, overrides: [:], environment: cli.environment))
    #expect(config.settings.people["alice"]?.deviceKeys.keys.sorted() == ["phone"])
    #expect(config.settings.people["alice"]?.devices.sorted() == ["phone", "watch"], "the device may report")
    #expect(cli.run("device", "list", "alice").stdout.contains("phone"))
    #expect(cli.run("device", "remove", "alice", "phone").code == 0)
    #expect(cli.run("device", "remove", "alice", "phone").code == ExitCode.notFound)
  }
}

/// doctor refuses what whilehered would refuse in `notify`, with its words.
@Suite struct DoctorNotifyTests {
  @Test func doctorNamesEverySinkTheDaemonWouldRefuse() throws {
    let cli = CLIHarness()
    let passwordFile = cli.home + "-pw"
    _ = FileManager.default.createFile(atPath: passwordFile, contents: Data("correct horse battery\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: passwordFile) }
    #expect(cli.run("user", "add", "alice", "--password-file", passwordFile).code == 0)
    let path = cli.home + "/config/whilehere/config.json"
    var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    var people = try #require(root["people"] as? [String: Any])
    var alice = try #require(people["alice"] as? [String: Any])
    alice["notify"] = ["webhook:https://hooks.example.org/x", "jsonl:/nonexistent-dir/r.jsonl", "pager:555", "console"]
    people["alice"] = alice
    root["people"] = people
    try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: path))
    let doctor = cli.run("doctor")
    #expect(doctor.code == ExitCode.config, "\(doctor.stdout)\(doctor.stderr)")
    #expect(doctor.stdout.contains("people.alice.webhookSecret"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("/nonexistent-dir does not"))
    #expect(doctor.stdout.contains("unknown notify provider 'pager'"), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("refused alice: console"))
    let json = try #require(try JSONSerialization.jsonObject(with: Data(cli.run("doctor", "--json").stdout.utf8)) as? [String: Any])
    #expect((json["notifyProblems"] as? [String])?.count == 3)
  }
}
