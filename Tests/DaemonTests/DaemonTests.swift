import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

/// Runs the real whilehered binary: it must report readiness, hold the
/// store while running, and stop cleanly on SIGTERM, releasing the store.
@Suite(.serialized) struct DaemonTests {
  static var daemonPath: String { BuiltProduct.path("whilehered") }

  func start(_ arguments: [String], output: String) throws -> Process {
    _ = FileManager.default.createFile(atPath: output, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.daemonPath)
    process.arguments = arguments
    process.environment = ["HOME": NSTemporaryDirectory()]
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    return process
  }

  /// Polls the daemon's output for a line; real time is the point here, as a real process is being watched.
  func waitFor(_ text: String, in path: String, process: Process) -> Bool {
    // Generous: under a loaded CI machine a debug binary can take seconds to start.
    for _ in 0..<15000 {
      if let output = try? String(contentsOfFile: path, encoding: .utf8), output.contains(text) { return true }
      if !process.isRunning { return false }
      usleep(2000)
    }
    return false
  }

  @Test func startsReportsReadyAndStopsCleanlyOnSIGTERM() throws {
    let directory = NSTemporaryDirectory() + "whilehered-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let output = directory + ".out"
    let process = try start(["--store", "file:" + directory + "/store", "--listen", "127.0.0.1:0"], output: output)
    let ready = waitFor("ready: profile headless", in: output, process: process)
    #expect(ready, "status \(process.isRunning ? -1 : process.terminationStatus), log: \((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")")
    // While it runs, it holds the store.
    #expect(throws: StoreError.self) { try FileOperationStore(directory: directory + "/store") }
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    let log = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    #expect(log.contains("stopped"))
    try FileOperationStore(directory: directory + "/store").close()
  }

  @Test func aBadConfigStopsItWithTheReason() throws {
    let output = NSTemporaryDirectory() + "whilehered-" + UUID().uuidString + ".out"
    let process = try start(["--store", "postgres:x", "--listen", "127.0.0.1:0"], output: output)
    process.waitUntilExit()
    #expect(process.terminationStatus == 78)
    let log = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    #expect(log.contains("unknown store provider 'postgres'"))
  }
}
