import Foundation
import Testing

/// Nothing is recorded before the person chooses; both choices are one command.
@Suite struct AnalyticsConsentTests {
  @Test func nothingIsRecordedUntilAllowedAndNothingAfterDenied() throws {
    let cli = CLIHarness()
    let usage = cli.home + "/usage.jsonl"
    let config = cli.home + "/config/whilehere/config.json"
    try FileManager.default.createDirectory(atPath: cli.home + "/config/whilehere", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: config, contents: Data(#"{"analytics": {"sink": ["jsonl:\#(usage)"]}}"#.utf8))
    #expect(cli.run("analytics", "status").stdout.contains("not chosen yet"))
    #expect(cli.run("task", "add", "Buy milk", "--at", "60.17,24.94").code == 0)
    #expect(!FileManager.default.fileExists(atPath: usage), "recorded before a choice")
    let allowed = cli.run("analytics", "allow")
    #expect(allowed.code == 0)
    #expect(allowed.stdout.contains("recorded to jsonl:"), "allowing says where events go: \(allowed.stdout)")
    #expect(cli.run("task", "list").code == 0)
    let lines = try String(contentsOfFile: usage, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.contains(#""command":"task""#) == true)
    #expect(lines.first?.contains("Buy milk") == false)
    #expect(cli.run("task", "done", "Buy milk").code == 0)
    let afterDone = try String(contentsOfFile: usage, encoding: .utf8)
    #expect(afterDone.contains(#""answer":"done""#) && afterDone.contains(#""channel":"cli""#))
    let counted = afterDone.split(separator: "\n").count
    #expect(cli.run("analytics", "deny").code == 0)
    #expect(cli.run("task", "list").code == 0)
    #expect(try String(contentsOfFile: usage, encoding: .utf8).split(separator: "\n").count == counted, "recorded after deny")
    #expect(cli.run("analytics", "status").stdout.contains("denied"))
  }
}
