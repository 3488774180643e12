import Domain
import Foundation
import Geofencing
import Notifications
import Persistence

/// The arrival engine: keeps a coverage plan installed on the region monitor,
/// confirms arrivals with budgeted precise sessions, and fires each task once
/// per visit. Driven by events (significant-change fixes, region events,
/// precise fixes, the passage of time, power and permission changes); every
/// call returns what it did.
public final class ArrivalService: @unchecked Sendable {
  static let budgetKey = "tracking.budget"
  /// Ids of every region this engine installs; others belong to other features.
  static func isOurs(_ id: String) -> Bool { id.hasPrefix("wh:") || id.hasPrefix("wh-zone:") || id.hasPrefix("wh-edge:") }

  let context: EngineContext
  let config: ArrivalConfig
  let monitor: any RegionMonitor
  let precise: any PreciseLocationControl
  let scheduler: NotificationScheduler
  let planner: CoveragePlanner
  let lock = NSLock()

  // Guarded by `lock`.
  var plan = CoveragePlan.empty
  var lastPlan: (origin: Coordinate, at: Date)?
  var lastPosition: Coordinate?
  /// The last plausible position a device reported on its own schedule.
  var reported: ReportTrack?
  /// Whether significant changes were asked for and not stopped since.
  var significantChangesOn = false
  /// When the earliest snooze ends: its task must come back into the plan then.
  var nextSnoozeEnd: Date?
  /// A single fix was asked for after leaving the coverage edge.
  var awaitingWakeFix = false
  /// Wake-up fixes that found the person where the plan was made back off:
  /// the current wait, and until when the next edge exit is let be.
  var wakeBackoff: TimeInterval = 0
  var wakeQuietUntil: Date?
  /// Since when the device's motion history says it is still; nil while it moves.
  var stillSince: Date?
  /// Arrival-region entries waiting for the fix that confirms them, by when it was asked for.
  var confirming: [Destination: Date] = [:]
  /// Destinations whose last confirming fix found the person far away: the
  /// OS's position wanders in and out of them; their entries are let be
  /// until `until`, the wait doubling each time.
  var confirmQuiet: [Destination: (wait: TimeInterval, until: Date)] = [:]
  /// After a session stopped with destinations unconfirmed because the
  /// person stood still: a small region around them; leaving it resumes.
  var resume: (id: String, zone: PlannedRegion)?
  var resumeCount = 0
  static let resumePrefix = "wh-resume:"
  /// Every destination that can fire, indexed by centre, kept in step with
  /// the store incrementally so a replan reads only the nearby ones.
  var index = CircleIndex()
  var indexKeys: [Destination: Int] = [:]
  var indexed: [Int: Destination] = [:]
  var nextIndexKey = 0
  /// The store revision the index reflects, and when a snooze ending will change it.
  var indexedRevision: Int?
  var indexValidUntil: Date?
  var visits: VisitTracker
  /// Reduced-accuracy updates are on, and when the last usable one came.
  var following = false
  var lastReducedAt: Date?
  var session: (state: PreciseSession, charge: Int)?
  var budget = TrackingBudget()
  var power = PowerState()
  var permissions = Permissions()

  public init(
    context: EngineContext, monitor: any RegionMonitor, precise: any PreciseLocationControl,
    scheduler: NotificationScheduler, config: ArrivalConfig = ArrivalConfig()
  ) {
    self.context = context
    self.monitor = monitor
    self.precise = precise
    self.scheduler = scheduler
    self.config = config
    var coverage = config.coverage
    coverage.osCapacity = min(coverage.osCapacity, monitor.capacity)
    planner = CoveragePlanner(config: coverage)
    visits = VisitTracker(exitMargin: config.exitMargin, refireCooldown: config.refireCooldown)
  }

  /// Loads the persisted budget; a session left open by a crash keeps its
  /// full reservation as its charge.
  public func launch() throws -> [ArrivalEvent] {
    lock.lock()
    defer { lock.unlock() }
    if let text = context.store.state().settings[Self.budgetKey] {
      budget = (try? JSONDecoder().decode(TrackingBudget.self, from: Data(text.utf8))) ?? TrackingBudget()
    }
    var events: [ArrivalEvent] = []
    if config.follow.visits { precise.startVisitMonitoring() }
    // Until the first plan they are also how the engine learns where the person is.
    precise.startSignificantChanges()
    significantChangesOn = true
    if budget.hasOpenSession {
      budget.closeInterrupted()
      try saveBudget()
      events.append(.degraded("a precise session was interrupted (crash or kill); it was charged in full"))
    }
    return events
  }

  public var currentPlan: CoveragePlan { lock.withLock { plan } }
  public var currentBudget: TrackingBudget { lock.withLock { budget } }
  public var sessionRunning: Bool { lock.withLock { session != nil } }

  func saveBudget() throws {
    let text = String(decoding: try JSONEncoder().encode(budget), as: UTF8.self)
    try context.store.append([.put(.setting(key: Self.budgetKey, value: text))])
  }

  /// Brings the index in line with the store: only what changed is
  /// inserted or removed, and nothing is read when nothing changed.
  func syncIndex(now: Date) {
    let state = context.store.state()
    if indexedRevision == state.taskPlaceRevision, indexValidUntil.map({ now < $0 }) ?? true { return }
    let current = Set(destinations(state: state, now: now))
    for (destination, key) in indexKeys where !current.contains(destination) {
      index.remove(key: key)
      indexKeys[destination] = nil
      indexed[key] = nil
    }
    for destination in current where indexKeys[destination] == nil {
      nextIndexKey += 1
      index.insert(key: nextIndexKey, latitude: destination.center.latitude, longitude: destination.center.longitude, radius: destination.radius)
      indexKeys[destination] = nextIndexKey
      indexed[nextIndexKey] = destination
    }
    indexedRevision = state.taskPlaceRevision
    indexValidUntil = state.tasks.values.compactMap { task -> Date? in
      if case .snoozed(let until) = task.state, until > now { return until }
      return nil
    }.min()
  }

  /// The destinations nearest `origin` the planner should weigh.
  func candidates(near origin: Coordinate, now: Date) -> [Destination] {
    syncIndex(now: now)
    return index.nearest(
      latitude: origin.latitude, longitude: origin.longitude, k: Self.candidateCount, maxDistance: planner.config.searchRadius
    ).compactMap { indexed[$0.key] }
  }

  /// Far more than a plan holds, so priority can still reorder them.
  static let candidateCount = 64

  /// The destinations that can fire now: counting locations of live tasks.
  func destinations(state: StoreState, now: Date) -> [Destination] {
    state.tasks.values.flatMap { task in
      task.countingLocations(at: now).compactMap { location -> Destination? in
        guard let center = state.coordinate(of: location) else { return nil }
        let priority = (task.locations.firstIndex { $0.id == location.id } ?? 0) + 1
        return Destination(task: task.id, location: location.id, center: center, radius: location.radius, priority: priority)
      }
    }
  }
}
