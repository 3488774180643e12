import Foundation
import Testing
import TestSupport

/// A fatal trap leaves a small report; doctor shows it; with analytics
/// allowed the next run sends it and removes it, otherwise it stays.
@Suite(.serialized) struct CrashReportTests {
  static var helper: String { BuiltProduct.path("crash-helper") }

  @Test func aTrapLeavesAReportThatIsSentOnlyWithConsent() throws {
    let cli = CLIHarness()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.helper)
    process.environment = cli.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal, "the helper must die of its signal")
    let report = cli.home + "/data/whilehere/crash-report.txt"
    let text = try String(contentsOfFile: report, encoding: .utf8)
    #expect(text.hasPrefix("whilehere-crash 1\nprogram=cli\nversion=0.1.0\nsignal="))
    #expect(text.contains("ran=sync\nran=task\n"))
    #expect(try FileManager.default.attributesOfItem(atPath: report)[.posixPermissions] as? Int == 0o600)
    let doctor = cli.run("doctor")
    #expect(doctor.stdout.contains("cli 0.1.0 died of signal"))
    #expect(doctor.stdout.contains("while running sync, task"))
    // Denied: it stays. Allowed: it goes to the sink, once.
    let usage = cli.home + "/usage.jsonl"
    try FileManager.default.createDirectory(atPath: cli.home + "/config/whilehere", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: cli.home + "/config/whilehere/config.json", contents: Data(#"{"analytics": {"sink": ["jsonl:\#(usage)"]}}"#.utf8))
    #expect(cli.run("analytics", "deny").code == 0)
    _ = cli.run("task", "list")
    #expect(FileManager.default.fileExists(atPath: report))
    #expect(cli.run("analytics", "allow").code == 0)
    _ = cli.run("task", "list")
    #expect(!FileManager.default.fileExists(atPath: report))
    let sent = try String(contentsOfFile: usage, encoding: .utf8)
    #expect(sent.contains(#""event":"crashed""#) && sent.contains(#""program":"cli""#))
  }
}
