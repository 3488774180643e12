import Engine
import Foundation
import Geofencing

/// Why the engine missed the visits and pass-bys it missed, read off one
/// run's observations against the truth: the first cause that applies, in
/// the order of `Cause`. `bench detection --explain` prints the counts, so
/// a change to the engine starts from where the misses are, not a guess.
public struct MissExplanation: Sendable {
  public enum Cause: String, CaseIterable, Sendable {
    case firedLate = "fired after leaving"
    case firedEarly = "fired 30-300 s before entering (then not again)"
    case neverCovered = "never in the plan while inside"
    case coveredTooLate = "in the plan only after entering"
    case noEvent = "in the plan, the OS reported nothing in time"
    case vetoed = "OS entry vetoed: the motion history said still"
    case followedPast = "OS entry while following, no followed position inside"
    case refused = "OS entry, no budget or power for a fix or session"
    case confirmFailed = "OS entry, the confirming fix did not fire"
    case sessionNoFire = "a session ran, nothing fired"
    case other = "other"
  }

  public private(set) var visits: [Cause: Int] = [:]
  public private(set) var passBys: [Cause: Int] = [:]

  public init() {}

  /// What one run did, second by second, for the tasks it concerns.
  public struct Record: Sendable {
    /// When each task came into or left the plan (arrival regions and approach zones).
    var coverage: [Int: [(second: Int, covered: Bool)]] = [:]
    var regionTasks: [String: Set<Int>] = [:]
    /// Seconds the OS reported an entry (or inside) of a region covering the task.
    var entries: [Int: [Int]] = [:]
    var fires: [Int: [Int]] = [:]
    var sessions: [(start: Int, end: Int)] = []
    var refusals: [Int] = []
    var stillVetoes: [Int] = []
    var followSkips: [Int] = []
    var confirmations: [Int] = []
    private var covered: Set<Int> = []
    private var sessionStart: Int?

    public init() {}

    static func task(_ destination: Destination) -> Int? { Int(destination.task.rawValue) }

    public mutating func observe(_ second: Int, _ observation: PhoneObservation) {
      switch observation {
      case .region(let event):
        guard event.kind == .entered || event.kind == .inside, let tasks = regionTasks[event.id] else { return }
        for task in tasks { entries[task, default: []].append(second) }
      case .engine(let event):
        switch event {
        case .planned(let plan, _, _, _):
          var now = Set<Int>()
          for region in plan.regions where region.kind != .edge {
            let tasks = Set(region.destinations.compactMap(Self.task))
            regionTasks[region.id, default: []].formUnion(tasks)
            now.formUnion(tasks)
          }
          for task in now.subtracting(covered) { coverage[task, default: []].append((second, true)) }
          for task in covered.subtracting(now) { coverage[task, default: []].append((second, false)) }
          covered = now
        case .sessionStarted:
          if sessionStart == nil { sessionStart = second }
        case .sessionStopped:
          if let start = sessionStart { sessions.append((start, second)) }
          sessionStart = nil
        case .sessionRefused: refusals.append(second)
        case .planKept(let reason):
          if reason.contains("while following") { followSkips.append(second) } else if reason.contains("stillness") { stillVetoes.append(second) }
        case .confirmationRequested: confirmations.append(second)
        case .reminder(.delivered(let notification)), .reminder(.suppressed(let notification, _)):
          if let task = Int(notification.task.rawValue) { fires[task, default: []].append(second) }
        default: break
        }
      }
    }

    func wasCovered(_ task: Int, at second: Int) -> Bool {
      (coverage[task] ?? []).last { $0.second <= second }?.covered ?? false
    }

    func coveredDuring(_ task: Int, from: Int, to: Int) -> Bool {
      wasCovered(task, at: from) || (coverage[task] ?? []).contains { $0.covered && $0.second >= from && $0.second <= to }
    }
  }

  public mutating func add(_ record: Record, truth: GroundTruth) {
    for episode in truth.episodes {
      let window = (episode.enter - DetectionScore.early)...episode.leave
      let fires = record.fires[episode.task] ?? []
      guard !fires.contains(where: window.contains) else { continue }
      let cause = Self.cause(of: episode, record: record, fires: fires)
      switch episode.kind {
      case .visit: visits[cause, default: 0] += 1
      case .passBy: passBys[cause, default: 0] += 1
      }
    }
  }

  static func cause(of episode: GroundTruth.Episode, record: Record, fires: [Int]) -> Cause {
    let task = episode.task
    if fires.contains(where: { $0 > episode.leave && $0 <= episode.leave + 900 }) { return .firedLate }
    if fires.contains(where: { $0 < episode.enter - DetectionScore.early && $0 >= episode.enter - 300 }) { return .firedEarly }
    guard record.coveredDuring(task, from: episode.enter, to: episode.leave) else { return .neverCovered }
    let entries = (record.entries[task] ?? []).filter { $0 >= episode.enter - 300 && $0 <= episode.leave }
    let sessionDuring = record.sessions.contains { $0.start <= episode.leave && $0.end >= episode.enter }
    if entries.isEmpty {
      if sessionDuring { return .sessionNoFire }
      return record.wasCovered(task, at: episode.enter) ? .noEvent : .coveredTooLate
    }
    let around = { (seconds: [Int]) in seconds.contains { second in entries.contains { abs($0 - second) <= 1 } } }
    if around(record.stillVetoes) { return .vetoed }
    if around(record.followSkips) { return .followedPast }
    if around(record.refusals) { return .refused }
    if sessionDuring { return .sessionNoFire }
    if around(record.confirmations) { return .confirmFailed }
    return .other
  }

  /// One line per cause with a miss, visits then pass-bys.
  public func lines(strategy: String) -> [String] {
    var lines = ["misses of \(strategy) (visits / pass-bys):"]
    for cause in Cause.allCases {
      let v = visits[cause] ?? 0
      let p = passBys[cause] ?? 0
      guard v + p > 0 else { continue }
      lines.append(String(format: "  %4d / %4d  %@", v, p, cause.rawValue))
    }
    return lines
  }
}
