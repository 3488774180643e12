import Foundation
import Testing
import TestSupport

/// The analytics question as a person meets it: asked once, on the first
/// run at a terminal, and never again whatever the answer; never asked when
/// output goes to a pipe (scripts).
@Suite(.serialized) struct AnalyticsPromptTests {
  /// Runs the whilehere binary on a pseudo-terminal (util-linux `script`
  /// makes one and passes `input` to it); what the terminal showed and the
  /// exit status.
  func onTerminal(_ arguments: [String], input: String, environment: [String: String]) throws -> (status: Int32, screen: String) {
    let quoted = ([SyncProcessTests.cliPath] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", quoted.joined(separator: " "), "/dev/null"]
    process.environment = environment
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stdout
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let screen = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, screen)
  }

  @Test func askedOnceAtATerminalAndNeverAgain() throws {
    let directory = TemporaryDirectory()
    let environment = ["HOME": directory.path, "NO_COLOR": "1", "TERM": "dumb"]
    let store = ["--store", "file:" + directory.file("store")]
    let consent = directory.file(".config/whilehere/analytics-consent")
    // A script (output to a pipe) is never asked and decides nothing.
    let piped = try SyncProcessTests().whilehere(store + ["task", "list"], environment: environment)
    #expect(piped.status == 0 && !piped.output.contains("Allow?"))
    #expect(!FileManager.default.fileExists(atPath: consent))
    let first = try onTerminal(store + ["task", "list"], input: "y\n", environment: environment)
    #expect(first.status == 0)
    #expect(first.screen.contains("anonymous usage counts") && first.screen.contains("Allow? [y/N]"), "\(first.screen)")
    #expect((try? String(contentsOfFile: consent, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "allow")
    let second = try onTerminal(store + ["task", "list"], input: "", environment: environment)
    #expect(second.status == 0 && !second.screen.contains("Allow?"), "\(second.screen)")
    // Saying no is as final as saying yes.
    try FileManager.default.removeItem(atPath: consent)
    _ = try onTerminal(store + ["task", "list"], input: "n\n", environment: environment)
    #expect((try? String(contentsOfFile: consent, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "deny")
    let after = try onTerminal(store + ["task", "list"], input: "", environment: environment)
    #expect(!after.screen.contains("Allow?"), "\(after.screen)")
  }
}
