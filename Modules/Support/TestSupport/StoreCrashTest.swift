import Domain
import Foundation
import Persistence

/// SIGKILLs the store-torture helper while it writes, at random moments,
/// and reopens the store each time: every acknowledged write (settings,
/// field updates, tag records) must be there. Shared by every durable
/// store's tests. WHILEHERE_CRASH_ITERATIONS sets the count (200 by
/// default, as CI runs it). A kill lands 0–40 ms after the writer is
/// ready, so on a loaded machine a run may prove less (the writer got
/// little time between kills): the kills go on, up to three times the
/// count, until `enough` says the outcome proves what the test wants.
public enum StoreCrashTest {
  public struct Outcome: Sendable {
    /// The kills asked for (WHILEHERE_CRASH_ITERATIONS): what evidence is weighed against.
    public var planned = 0
    /// The kills made: `planned`, or more while the outcome was not `enough`.
    public var iterations = 0
    public var acknowledged = 0
    public var tags = 0
    /// Iterations in which the writer said it wrote in place (a lazy store's `in-place`).
    public var inPlace = 0
    /// What was lost, per iteration that lost anything (empty: nothing).
    public var losses: [String] = []
    /// Iterations where the writer died of something else than the kill.
    public var unexpectedExits: [Int] = []

    /// Whether the kills proved enough: more acknowledged writes than
    /// kills planned, tags acknowledged in at least half as many, and
    /// (`inPlace`) a quarter of the writers writing in place.
    public func provesEnough(inPlace wanted: Bool) -> Bool {
      acknowledged > planned && tags > planned / 2 && (!wanted || inPlace > planned / 4)
    }

    public var evidence: String {
      "\(iterations) kills (\(planned) planned): \(acknowledged) acks, \(tags) tags, \(inPlace) writers in place"
    }
  }

  /// `target(directory)` is the helper's store argument for a fresh
  /// folder; `open(directory)` opens that store again; `enough(outcome)`
  /// whether the kills so far proved enough to stop at `planned`.
  public static func run(
    helper: String, target: (TemporaryDirectory) -> String, open: (TemporaryDirectory) throws -> any OperationStore,
    enough: (Outcome) -> Bool
  ) throws -> Outcome {
    let planned = Int(ProcessInfo.processInfo.environment["WHILEHERE_CRASH_ITERATIONS"] ?? "") ?? 200
    var outcome = Outcome()
    outcome.planned = planned
    var generator = SystemRandomNumberGenerator()
    var directory = TemporaryDirectory()
    var acknowledged = Set<String>()
    var acknowledgedTags = Set<String>()
    for iteration in 0..<(3 * planned) {
      if iteration >= planned, enough(outcome) { break }
      outcome.iterations += 1
      if iteration % 25 == 0 {
        directory = TemporaryDirectory()
        acknowledged = []
        acknowledgedTags = []
      }
      let output = directory.file("out-\(iteration)")
      _ = FileManager.default.createFile(atPath: output, contents: nil)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: helper)
      // A small compaction threshold so kills also land inside compaction (FileStore).
      process.arguments = [target(directory), "3", "65536"]
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
      try process.run()
      try waitForReady(output, process: process)
      // Real time is the point here: the kill must land at an arbitrary
      // moment of real writing, not at a simulated one.
      usleep(UInt32.random(in: 0...40_000, using: &generator))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason != .uncaughtSignal { outcome.unexpectedExits.append(iteration) }

      let lines = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
      // A line cut by the kill was never a whole acknowledgement.
      var saidInPlace = false
      for line in lines.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        if line.hasPrefix("ack ") {
          acknowledged.insert(String(line.dropFirst(4)))
          outcome.acknowledged += 1
        } else if line.hasPrefix("tag ") {
          acknowledgedTags.insert(String(line.dropFirst(4)))
          outcome.tags += 1
        } else if line == "in-place" {
          saidInPlace = true
        }
      }
      if saidInPlace { outcome.inPlace += 1 }
      let store = try open(directory)
      let settings = store.state().settings
      let tags = Set(store.state().places[PlaceID("torture-place")]?.personal.tags ?? [])
      store.close()
      let missing = acknowledged.filter { settings[$0] == nil }
      let lostTags = acknowledgedTags.subtracting(tags)
      if !missing.isEmpty || !lostTags.isEmpty {
        outcome.losses.append(
          "iteration \(iteration): \(missing.count) acknowledged writes lost (e.g. \(missing.prefix(3))), "
            + "\(lostTags.count) acknowledged tags lost (e.g. \(lostTags.prefix(3)))")
        return outcome
      }
    }
    return outcome
  }

  static func waitForReady(_ path: String, process: Process) throws {
    for _ in 0..<2000 {
      if let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("ready") { return }
      if !process.isRunning { throw Failure(message: "writer exited: \(process.terminationStatus)") }
      usleep(1000)
    }
    throw Failure(message: "writer never became ready")
  }

  public struct Failure: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
  }
}
