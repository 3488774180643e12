import Domain
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
    case neverPlanned = "never in the plan: no plan made yet"
    case crowdedOut = "never in the plan: inside the planned area, nearer places chosen"
    case planMisplaced = "never in the plan: last plan made > 500 m from the person"
    case leftWhileFollowing = "never in the plan: outside the planned area while following, no replan in time"
    case leftPlanned = "never in the plan: outside the planned area, not following, no replan in time"
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
  /// For each miss after the person left the planned area: seconds from
  /// leaving it to reaching the place, the edge's radius, and whether the
  /// OS delivered the edge's exit before the place (no plan followed it:
  /// the miss's cause says so).
  public private(set) var leftArea: [(seconds: Int, radius: Double, exitDelivered: Bool)] = []

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
    /// Each plan: when, where it was made from, and its edge (the planned area).
    var plans: [(second: Int, origin: Coordinate?, edge: (center: Coordinate, radius: Double)?)] = []
    var followingChanges: [(second: Int, on: Bool)] = []
    /// Seconds the OS delivered an exit of a plan's edge.
    var edgeExits: [Int] = []
    func wasFollowing(at second: Int) -> Bool { followingChanges.last { $0.second <= second }?.on ?? false }
    private var covered: Set<Int> = []
    private var sessionStart: Int?

    public init() {}

    static func task(_ destination: Destination) -> Int? { Int(destination.task.rawValue) }

    public mutating func observe(_ second: Int, _ observation: PhoneObservation) {
      switch observation {
      case .region(let event):
        if event.id.hasPrefix("wh-edge:"), event.kind == .exited || event.kind == .outside { edgeExits.append(second) }
        guard event.kind == .entered || event.kind == .inside, let tasks = regionTasks[event.id] else { return }
        for task in tasks { entries[task, default: []].append(second) }
      case .engine(let event):
        switch event {
        case .planned(let plan, _, _, _):
          let edge = plan.edge.map { ($0.center, $0.radius) }
          plans.append((second, plan.origin, edge))
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
        case .following(let on): followingChanges.append((second, on))
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

  public mutating func add(_ record: Record, truth: GroundTruth, trip: Trip, places: PlaceSet) {
    for episode in truth.episodes {
      let window = (episode.enter - DetectionScore.early)...episode.leave
      let fires = record.fires[episode.task] ?? []
      guard !fires.contains(where: window.contains) else { continue }
      // A fire inside another interval of the task (the person came back,
      // or reached another of its places) was that one's, not this one's late or early fire.
      let others = truth.episodes.filter { $0.task == episode.task && $0.enter != episode.enter }
      let stray = fires.filter { fire in !others.contains { ($0.enter - DetectionScore.early...$0.leave).contains(fire) } }
      var cause = Self.cause(of: episode, record: record, fires: stray)
      if cause == .neverPlanned { cause = Self.whyNotPlanned(episode, record: record, trip: trip, places: places) }
      if cause == .leftPlanned || cause == .leftWhileFollowing, let sample = Self.leftArea(episode, record: record, trip: trip) { leftArea.append(sample) }
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
    guard record.coveredDuring(task, from: episode.enter, to: episode.leave) else { return .neverPlanned }
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

  /// Splits "never in the plan" by the last plan before the person went in:
  /// none; made far from where the person truly was; the task's place
  /// inside its edge but left out for nearer ones; or outside its edge with
  /// no replan since the person left the planned area, while the engine
  /// followed them with reduced-accuracy updates or not.
  static func whyNotPlanned(_ episode: GroundTruth.Episode, record: Record, trip: Trip, places: PlaceSet) -> Cause {
    guard let last = record.plans.last(where: { $0.second <= episode.enter }), let edge = last.edge else { return .neverPlanned }
    let atPlan = trip.positions[min(max(last.second, 0), trip.positions.count - 1)]
    if let origin = last.origin, origin.distance(to: atPlan) > 500 { return .planMisplaced }
    let here = trip.positions[min(max(episode.enter, 0), trip.positions.count - 1)]
    let taskPlaces = places.places.filter { places.taskOf[$0.id] == episode.task }
    guard let place = taskPlaces.min(by: { $0.center.distance(to: here) < $1.center.distance(to: here) }) else { return .neverPlanned }
    if place.center.distance(to: edge.center) <= edge.radius { return .crowdedOut }
    return record.wasFollowing(at: episode.enter) ? .leftWhileFollowing : .leftPlanned
  }

  /// When the person left the last plan's edge before reaching the
  /// episode's place, and what the OS and the engine did between.
  static func leftArea(_ episode: GroundTruth.Episode, record: Record, trip: Trip) -> (Int, Double, Bool)? {
    guard let last = record.plans.last(where: { $0.second <= episode.enter }), let edge = last.edge, !trip.positions.isEmpty else { return nil }
    let end = min(episode.enter, trip.positions.count - 1)
    guard last.second <= end,
      let left = (max(last.second, 0)...end).first(where: { trip.positions[$0].distance(to: edge.center) > edge.radius })
    else { return nil }
    let exit = record.edgeExits.contains { $0 >= last.second && $0 <= episode.enter }
    return (episode.enter - left, edge.radius, exit)
  }

  /// One line per cause with a miss, visits then pass-bys, and what the
  /// misses after leaving the planned area waited for.
  public func lines(strategy: String) -> [String] {
    var lines = ["misses of \(strategy) (visits / pass-bys):"]
    for cause in Cause.allCases {
      let v = visits[cause] ?? 0
      let p = passBys[cause] ?? 0
      guard v + p > 0 else { continue }
      lines.append(String(format: "  %4d / %4d  %@", v, p, cause.rawValue))
    }
    if !leftArea.isEmpty {
      func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
      lines.append(
        "  after leaving the planned area (\(leftArea.count)): median \(Int(median(leftArea.map { Double($0.seconds) }))) s from leaving it to the place, "
          + "edge radius median \(Int(median(leftArea.map(\.radius)))) m; the OS delivered the edge's exit before the place for "
          + "\(leftArea.filter(\.exitDelivered).count)")
    }
    return lines
  }
}
