import Domain
import FileStore
import Foundation
import Persistence
import Testing
import TestSupport

/// SIGKILLs a process writing to a FileStore at random moments and checks
/// that the store always reopens with every acknowledged write present.
/// WHILEHERE_CRASH_ITERATIONS sets the count (200 by default, as CI runs it).
@Suite(.serialized) struct CrashTests {
  static var torturePath: String { BuiltProduct.path("store-torture") }

  @Test func acknowledgedWritesSurviveSIGKILL() throws {
    let iterations = Int(ProcessInfo.processInfo.environment["WHILEHERE_CRASH_ITERATIONS"] ?? "") ?? 200
    var generator = SystemRandomNumberGenerator()
    var directory = TemporaryDirectory()
    var acknowledged = Set<String>()
    var acknowledgedTags = Set<String>()
    var totalAcks = 0
    var totalTags = 0
    for iteration in 0..<iterations {
      if iteration % 25 == 0 {
        directory = TemporaryDirectory()
        acknowledged = []
        acknowledgedTags = []
      }
      let output = directory.file("out-\(iteration)")
      _ = FileManager.default.createFile(atPath: output, contents: nil)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: Self.torturePath)
      // A small compaction threshold so kills also land inside compaction.
      process.arguments = [directory.file("store"), "3", "65536"]
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
      try process.run()
      try waitForReady(output, process: process)
      // Real time is the point here: the kill must land at an arbitrary
      // moment of real writing, not at a simulated one.
      usleep(UInt32.random(in: 0...40_000, using: &generator))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal, "the writer died on its own: iteration \(iteration)")

      let lines = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
      // A line cut by the kill was never a whole acknowledgement.
      for line in lines.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        if line.hasPrefix("ack ") {
          acknowledged.insert(String(line.dropFirst(4)))
          totalAcks += 1
        } else if line.hasPrefix("tag ") {
          acknowledgedTags.insert(String(line.dropFirst(4)))
          totalTags += 1
        }
      }
      let store = try FileOperationStore(directory: directory.file("store"))
      let settings = store.state().settings
      let tags = Set(store.state().places[PlaceID("torture-place")]?.personal.tags ?? [])
      store.close()
      let missing = acknowledged.filter { settings[$0] == nil }
      #expect(missing.isEmpty, "iteration \(iteration): \(missing.count) acknowledged writes lost, e.g. \(missing.prefix(3))")
      // Field updates and tag records survive the same way.
      let lostTags = acknowledgedTags.subtracting(tags)
      #expect(lostTags.isEmpty, "iteration \(iteration): \(lostTags.count) acknowledged tags lost, e.g. \(lostTags.prefix(3))")
      if !missing.isEmpty || !lostTags.isEmpty { return }
    }
    #expect(totalAcks > iterations, "the writer acknowledged too little to prove anything (\(totalAcks) acks)")
    #expect(totalTags > iterations / 2, "the place editor acknowledged too few tags (\(totalTags))")
  }

  private func waitForReady(_ path: String, process: Process) throws {
    for _ in 0..<2000 {
      if let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("ready") { return }
      if !process.isRunning { throw CrashTestFailure(message: "writer exited: \(process.terminationStatus)") }
      usleep(1000)
    }
    throw CrashTestFailure(message: "writer never became ready")
  }
}

struct CrashTestFailure: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
