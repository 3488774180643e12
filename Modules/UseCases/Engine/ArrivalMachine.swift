import Domain
import Foundation
import Geofencing
import Persistence

/// The arrival engine as a state machine: it takes one input at a time
/// (`handle`) with a snapshot of the world it may read (the time, the
/// store's state, the regions installed) and returns the effects to apply,
/// in order. It keeps a coverage plan on the region monitor, confirms
/// arrivals with budgeted precise sessions and fires each task once per
/// visit. It calls no port and takes no lock: a native phone, an OwnTracks
/// phone through the daemon and the simulator all drive this one machine
/// (through `ArrivalService`), and apply what it returns.
public struct ArrivalMachine: Sendable {
  /// What one step may read.
  public struct World: Sendable {
    public var now: Date
    public var state: StoreState
    /// Every region the monitor holds now, ours and others'.
    public var monitored: Set<String>
    /// The store's `stateGeneration` read before `state` was, if it gave one.
    public var stateGeneration: Int?

    public init(now: Date, state: StoreState, monitored: Set<String>, stateGeneration: Int? = nil) {
      self.now = now
      self.state = state
      self.monitored = monitored
      self.stateGeneration = stateGeneration
    }
  }

  /// Ids of every region this engine installs; others belong to other features.
  static func isOurs(_ id: String) -> Bool { id.hasPrefix("wh:") || id.hasPrefix("wh-zone:") || id.hasPrefix("wh-edge:") }

  /// Shared with every engine of an equal configuration (`SharedArrivalConfig`).
  let shared: SharedArrivalConfig
  var config: ArrivalConfig { shared.value }
  /// How many regions the monitor holds at most.
  let capacity: Int
  var planner: CoveragePlanner { shared.planner }
  /// Local time, for opening hours.
  let timeZone: TimeZone

  /// The step being handled: its world and the effects so far.
  var world: World
  var effects: [ArrivalEffect] = []

  var plan = CoveragePlan.empty
  var lastPlan: (origin: Coordinate, at: Date)?
  var lastPosition: Coordinate?
  /// The last plausible position a device reported on its own schedule.
  var reported: ReportTrack?
  /// Whether a precise session reaches the device that reports on its own
  /// schedule (`PhoneReading.sessionsReach`; a source that reports
  /// continuously, such as gpsd, is its own session).
  var sessionsReachReporter = true
  /// The coverage edge as a phone reached over the network is placed in it
  /// by its reports (`phoneReport`).
  var reportedEdge: ReportedEdge?
  /// Whether significant changes were asked for and not stopped since.
  var significantChangesOn = false
  /// When the earliest snooze ends or a place of a task only for open
  /// hours opens or closes: the plan must change then.
  var nextTimedChange: Date?
  /// When a single fix was asked for after leaving the coverage edge, until it comes.
  var wakeFixAsked: Date?
  /// Wake-up fixes that found the person where the plan was made back off:
  /// the current wait, and until when the next edge exit is let be.
  var wakeBackoff: TimeInterval = 0
  var wakeQuietUntil: Date?
  /// The edge region the OS last reported the person outside of, while it
  /// is still the plan's edge.
  var edgeSpent: String?
  /// Since when the device's motion history says it is still; nil while it moves.
  var stillSince: Date?
  /// Crossings let be because the device seemed still, and when: taken
  /// after all if it turns out to have been moving by then (`retakeVetoed`).
  var stillVetoed: [(event: RegionEvent, at: Date)] = []
  /// Regions of the plan taken off the OS while the device is still
  /// (`muteWhileStill`), and the stillness they were muted in.
  var muted: Set<String> = []
  var mutedStillSince: Date?
  /// When a fix was asked to find where a coarsely placed stay began (`locate`).
  var locateAsked: Date?
  /// When the OS's own position was asked to stand in for a wake-up fix the
  /// allowance could not pay (`askCoarseWake`).
  var coarseWakeAsked: Date?
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
  /// Following the person, and when the last usable reduced-accuracy update came.
  var following = false
  /// Whether reduced-accuracy updates are on: while following, or while a
  /// coarse wake-up waits for its position.
  var reducedOn = false
  /// Until when the followed positions come with `approachFilter`.
  var closeFollowUntil: Date?
  var lastReducedAt: Date?
  /// The last usable followed position and its accuracy, and whether the
  /// silence after it already asked a fix (`FollowConfig.silenceAfter`).
  var lastFollowed: (point: Coordinate, accuracy: Double)?
  var silenceAsked = false
  var session: (state: PreciseSession, charge: Int)?
  var budget = TrackingBudget()
  var power = PowerState()
  var permissions = Permissions()

  /// GPS seconds a movement watch costs the allowance (`PreciseLocationControl.movementWatchCharge`).
  let watchCharge: TimeInterval
  /// The engine runs in an app the OS suspends when it stops receiving
  /// locations (a phone's own app, not a server): a session resting its
  /// GPS keeps reduced-accuracy updates on meanwhile, or nothing would run
  /// its timer to resume it.
  let suspendsWhenIdle: Bool
  /// Reduced-accuracy updates are on for a resting session, or for a
  /// session waiting out the restart cooldown.
  var holdingAwake = false
  /// Zones whose sessions the restart cooldown refused, and when it ends
  /// (`SessionConfig.retryAfterCooldown`).
  var deferred: (zones: [PlannedRegion], at: Date)?

  /// `capacity`: the region monitor's limit (the plan never asks more).
  public init(
    config: ArrivalConfig, capacity: Int, world: World, timeZone: TimeZone = .current, watchCharge: TimeInterval = 0, suspendsWhenIdle: Bool = false
  ) {
    shared = SharedArrivalConfig.of(config, capacity: capacity)
    self.watchCharge = watchCharge
    self.suspendsWhenIdle = suspendsWhenIdle
    self.timeZone = timeZone
    self.capacity = capacity
    visits = VisitTracker(exitMargin: config.exitMargin, refireCooldown: config.refireCooldown)
    self.world = world
  }

  public var currentPlan: CoveragePlan { plan }
  public var currentBudget: TrackingBudget { budget }
  public var sessionRunning: Bool { session != nil }

  /// Takes one input and returns what to do about it, in order.
  public mutating func handle(_ input: ArrivalInput, in world: World) -> [ArrivalEffect] {
    self.world = world
    return handle(input)
  }

  /// `handle`, in the world of the last step but for the time and the
  /// regions held: the store said its state has not changed since
  /// (`World.stateGeneration`). At 10,000 people taking the state again
  /// at every fix fetched several of the store's lines from memory.
  public mutating func handle(_ input: ArrivalInput, at now: Date, monitored: Set<String>) -> [ArrivalEffect] {
    world.now = now
    world.monitored = monitored
    return handle(input)
  }

  private mutating func handle(_ input: ArrivalInput) -> [ArrivalEffect] {
    effects = []
    take(input)
    relaxCloseFollow()
    defer { effects = [] }
    return effects
  }

  /// One input's part of a step (a phone's report takes several in a row).
  mutating func take(_ input: ArrivalInput) {
    switch input {
    case .launch(let saved): launch(saved)
    case .region(let event):
      noteEdgeCrossed(event)
      regionEvent(event)
      recheckSpentEdge()
    case .preciseFix(let point, let accuracy): preciseFix(point, accuracy: accuracy)
    case .reportedFix(let point, let accuracy, let takenAt, let mayFire, let restoring):
      reportedFix(point, accuracy: accuracy, takenAt: takenAt, mayFire: mayFire, restoring: restoring)
    case .reducedFix(let point, let accuracy): reducedFix(point, accuracy: accuracy)
    case .significantChange(let point, let accuracy): significantChange(point, accuracy: accuracy)
    case .visit(let point, let accuracy, let departed):
      visitReported(point, accuracy: accuracy, departed: departed)
      recheckSpentEdge()
    case .motion(let still, let since):
      motionChanged(still: still, since: since)
      recheckSpentEdge()
    case .power(let state): powerChanged(state)
    case .permissions(let granted): permissionsChanged(granted)
    case .tasksChanged: tasksChanged()
    case .tick: tick()
    case .shutdown: shutdown()
    case .phoneReport(let reading): phoneReport(reading)
    }
    unmuteIfMoved()
  }

  var now: Date { world.now }

  mutating func report(_ event: ArrivalEvent) { effects.append(.report(event)) }
  mutating func command(_ command: ArrivalEffect.LocationCommand) { effects.append(.location(command)) }
  mutating func saveBudget() { effects.append(.saveBudget(budget)) }

  /// The regions of ours the monitor holds, as this step has left them.
  var installed: Set<String> { world.monitored.filter(Self.isOurs) }

  mutating func install(_ region: PlannedRegion) {
    world.monitored.insert(region.id)
    effects.append(.install(region))
  }

  mutating func uninstall(_ id: String) {
    world.monitored.remove(id)
    effects.append(.uninstall(id))
  }

  /// Loads the saved budget; a session left open by a crash keeps its
  /// full reservation as its charge.
  mutating func launch(_ saved: TrackingBudget?) {
    if let saved { budget = saved }
    if config.follow.visits { command(.startVisits) }
    // Until the first plan they are also how the engine learns where the person is.
    command(.startSignificantChanges)
    significantChangesOn = true
    if budget.hasOpenSession {
      budget.closeInterrupted()
      saveBudget()
      report(.degraded("a precise session was interrupted (crash or kill); it was charged in full"))
    }
  }

  /// Brings the index in line with the store: only what changed is
  /// inserted or removed, and nothing is read when nothing changed.
  mutating func syncIndex() {
    let state = world.state
    if indexedRevision == state.taskPlaceRevision, indexValidUntil.map({ now < $0 }) ?? true { return }
    let current = Set(destinations())
    for (destination, key) in indexKeys where !current.contains(destination) {
      index.remove(key: key)
      indexKeys[destination] = nil
      indexed[key] = nil
    }
    // Filed together: the first sync of a large collection, or a big import, loads in bulk.
    var added: [CircleIndex.Circle] = []
    for destination in current where indexKeys[destination] == nil {
      nextIndexKey += 1
      added.append(
        CircleIndex.Circle(
          key: nextIndexKey, latitude: destination.center.latitude, longitude: destination.center.longitude, radius: destination.radius))
      indexKeys[destination] = nextIndexKey
      indexed[nextIndexKey] = destination
    }
    if !added.isEmpty { index.insert(contentsOf: added) }
    indexedRevision = state.taskPlaceRevision
    indexValidUntil = timedChange()
  }

  /// When the earliest snooze still running ends, or a place of a task
  /// only for open hours opens or closes, whichever comes first.
  func timedChange() -> Date? {
    let snoozeEnd = world.state.tasks.values.compactMap { task -> Date? in
      if case .snoozed(let until) = task.state, until > now { return until }
      return nil
    }.min()
    let opening = world.state.nextOpeningChange(after: now, in: timeZone)
    return [snoozeEnd, opening].compactMap { $0 }.min()
  }

  /// The destinations nearest `origin` the planner should weigh.
  mutating func candidates(near origin: Coordinate) -> [Destination] {
    syncIndex()
    return index.nearest(
      latitude: origin.latitude, longitude: origin.longitude, k: Self.candidateCount, maxDistance: planner.config.searchRadius
    ).compactMap { indexed[$0.key] }
  }

  /// Far more than a plan holds, so priority can still reorder them.
  static let candidateCount = 64

  /// The destinations that can fire now: counting locations of live tasks.
  func destinations() -> [Destination] {
    let state = world.state
    return state.tasks.values.flatMap { task in
      state.firingLocations(of: task, at: now, in: timeZone).compactMap { location -> Destination? in
        guard let center = state.coordinate(of: location) else { return nil }
        let priority = (task.locations.firstIndex { $0.id == location.id } ?? 0) + 1
        return Destination(task: task.id, location: location.id, center: center, radius: location.radius, priority: priority)
      }
    }
  }
}
