import Domain
import Foundation
import Geofencing
import Locking
import Notifications
import Persistence
import Synchronization

/// The arrival engine on a device: hands each input to the one
/// `ArrivalMachine` with a snapshot of the world (the clock, the store, the
/// regions installed), then applies the effects it returns to the ports
/// (region monitor, location services, notifications, the store) outside
/// the machine's lock, and says what happened. Callers deliver one input
/// at a time per engine (PhoneService and the simulator do); the lock only
/// keeps the machine's state whole.
public final class ArrivalService: Sendable {
  static let budgetKey = "tracking.budget"

  let context: EngineContext
  let monitor: any RegionMonitor
  let precise: any PreciseLocationControl
  let scheduler: NotificationScheduler
  private let machine: Locked<ArrivalMachine>
  /// The visits reminded could not be saved at the last try: they are
  /// saved again before the next step reads the store (a restore) or
  /// fires, and at shutdown. Left unsaved, a restart or the next worker
  /// would take a visit already reminded for a new one.
  private let visitsOwed = Atomic(false)

  /// What asked a confirming fix, when no region did (`confirmationRequested`'s id).
  public static let followID = ArrivalMachine.followID
  public static let visitID = ArrivalMachine.visitID
  public static let stopID = ArrivalMachine.stopID
  public static let silenceID = ArrivalMachine.silenceID
  public static let reportID = ArrivalMachine.reportID

  public init(
    context: EngineContext, monitor: any RegionMonitor, precise: any PreciseLocationControl,
    scheduler: NotificationScheduler, config: ArrivalConfig = ArrivalConfig()
  ) {
    self.context = context
    self.monitor = monitor
    self.precise = precise
    self.scheduler = scheduler
    var config = config
    if !precise.offersReducedUpdates { config.follow.enabled = false }
    // Without a watch the app would learn late that the person got up.
    if !precise.offersMovementWatch { config.coverage.muteWhileWatched = false }
    machine = Locked(
      ArrivalMachine(
        config: config, capacity: monitor.capacity,
        world: ArrivalMachine.World(now: context.clock.now(), state: context.store.state(), monitored: []), timeZone: context.timeZone,
        watchCharge: precise.movementWatchCharge,
        // A phone that offers reduced-accuracy updates runs the engine itself, and is suspended when idle.
        suspendsWhenIdle: precise.offersReducedUpdates))
  }

  /// Loads the persisted budget and starts what the engine listens to; a
  /// session left open by a crash keeps its full reservation as its charge.
  public func launch() throws -> [ArrivalEvent] {
    let saved = context.store.state().settings[Self.budgetKey].flatMap { try? JSONDecoder().decodeOutside(TrackingBudget.self, from: Data($0.utf8)) }
    let (events, failure) = step(.launch(budget: saved))
    if let failure { throw failure }
    return events
  }

  public var currentPlan: CoveragePlan { machine.withLock { $0.currentPlan } }
  public var currentBudget: TrackingBudget { machine.withLock { $0.currentBudget } }
  public var sessionRunning: Bool { machine.withLock { $0.sessionRunning } }

  public func regionEvent(_ event: RegionEvent) -> [ArrivalEvent] { step(.region(event)).events }
  public func preciseFix(_ point: Coordinate, accuracy: Double) -> [ArrivalEvent] { step(.preciseFix(point, accuracy: accuracy)).events }
  public func reducedFix(_ point: Coordinate, accuracy: Double) -> [ArrivalEvent] { step(.reducedFix(point, accuracy: accuracy)).events }
  public func significantChange(_ point: Coordinate, accuracy: Double) -> [ArrivalEvent] {
    step(.significantChange(point, accuracy: accuracy)).events
  }
  public func visitReported(_ point: Coordinate, accuracy: Double, departed: Date?) -> [ArrivalEvent] {
    step(.visit(point, accuracy: accuracy, departed: departed)).events
  }
  public func motionChanged(still: Bool, since: Date? = nil) -> [ArrivalEvent] { step(.motion(still: still, since: since)).events }
  public func powerChanged(_ state: PowerState) -> [ArrivalEvent] { step(.power(state)).events }
  public func permissionsChanged(_ granted: Permissions) -> [ArrivalEvent] { step(.permissions(granted)).events }
  public func tasksChanged() -> [ArrivalEvent] { step(.tasksChanged).events }
  public func tick() -> [ArrivalEvent] { step(.tick).events }
  public func shutdown() -> [ArrivalEvent] { step(.shutdown).events }

  /// One report from a phone reached over the network, as one step (see `ArrivalMachine.phoneReport`).
  public func phoneReport(_ reading: PhoneReading) -> [ArrivalEvent] { step(.phoneReport(reading)).events }

  /// A location a device reported on its own schedule (see `ArrivalMachine.reportedFix`).
  public func reportedFix(
    _ point: Coordinate, accuracy: Double, takenAt: Date? = nil, mayFire: Bool = true, restoring: Bool = false
  ) -> [ArrivalEvent] {
    step(.reportedFix(point, accuracy: accuracy, takenAt: takenAt, mayFire: mayFire, restoring: restoring)).events
  }

  /// One input through the machine, then its effects; with the first
  /// budget save that failed.
  private func step(_ input: ArrivalInput) -> (events: [ArrivalEvent], failure: (any Error)?) {
    var owed: [ArrivalEvent] = []
    if visitsOwed.load(ordering: .acquiring) {
      let saved = machine.withLock { [context] in $0.savedVisits(of: context.store.state()) }
      owed = apply([.saveVisits(saved)]).events
    }
    let now = context.clock.now()
    let monitored = monitor.monitoredRegions()
    // The store's state is taken again only when it says it changed; read
    // outside the machine's lock, as the store may answer another step.
    let generation = context.store.stateGeneration
    // Checked and handled in one hold of the lock: the common case takes it once.
    let kept: [ArrivalEffect]? = generation == nil ? nil : machine.withLock { machine in
      guard machine.world.stateGeneration == generation else { return nil }
      return machine.handle(input, at: now, monitored: monitored)
    }
    let effects: [ArrivalEffect]
    if let kept {
      effects = kept
    } else {
      let world = ArrivalMachine.World(now: now, state: context.store.state(), monitored: monitored, stateGeneration: generation)
      effects = machine.withLock { $0.handle(input, in: world) }
    }
    let (events, failure) = apply(effects)
    return (owed + events, failure)
  }

  /// The state a region is declared in where the monitor takes one: an
  /// edge (coverage or resume) is centred where the person is, so inside;
  /// every other region outside, so the OS says when it finds the person
  /// inside one, also where the plan's origin is out of date, and an
  /// answer that agrees costs no wake.
  static func declaredInside(_ region: PlannedRegion) -> Bool { region.kind == .edge }

  /// Applies effects in order. Tracking asked for after a budget save that
  /// failed is not started: a reservation that is not durable could be
  /// hidden by a crash. The machine learns it as it learns of a fix that
  /// never came (the session or the confirmation times out).
  private func apply(_ effects: [ArrivalEffect]) -> (events: [ArrivalEvent], failure: (any Error)?) {
    var events: [ArrivalEvent] = []
    var failure: (any Error)?
    var unsaved = false
    for effect in effects {
      switch effect {
      case .report(let event):
        events.append(event)
      case .applyPlan(let plan, let add, let remove, let origin, let reason):
        for id in remove { monitor.stopMonitoring(id) }
        var added: [String] = []
        var more: [ArrivalEvent] = []
        for region in add {
          do {
            if monitor.declaresInitialState {
              try monitor.startMonitoring(region, assumingInside: Self.declaredInside(region))
              added.append(region.id)
            } else {
              try monitor.startMonitoring(region)
              added.append(region.id)
              if region.center.distance(to: origin) <= region.radius {
                monitor.requestState(region.id)
                more.append(.stateRequested(region.id))
              }
            }
          } catch {
            more.append(.installFailed("\(region.id): \(error)"))
          }
        }
        events += [.planned(plan, added: added, removed: remove, reason: reason)] + more
      case .install(let region):
        do {
          try monitor.startMonitoring(region, assumingInside: Self.declaredInside(region))
        } catch { events.append(.installFailed("\(region.id): \(error)")) }
      case .requestState(let id):
        // A region installed as outside already has the OS say if it finds otherwise.
        guard !monitor.declaresInitialState else { break }
        monitor.requestState(id)
        events.append(.stateRequested(id))
      case .uninstall(let id):
        monitor.stopMonitoring(id)
      case .location(let command):
        apply(command, unsaved: unsaved)
      case .notify(let reminder):
        let outcome = scheduler.notify(
          task: reminder.task, location: reminder.location, placeName: reminder.placeName, distance: reminder.distance, at: reminder.at,
          visit: reminder.visit, notificationsAllowed: reminder.allowed)
        events.append(.reminder(outcome))
      case .saveBudget(let budget):
        do {
          let text = String(decoding: try JSONEncoder().encode(budget), as: UTF8.self)
          try context.store.append([.put(.setting(key: Self.budgetKey, value: text))])
          unsaved = false
        } catch {
          unsaved = true
          failure = failure ?? error
          events.append(.degraded("could not save the tracking budget: \(error)"))
        }
      case .saveVisits(let saved):
        do {
          let encoder = JSONEncoder()
          encoder.outputFormatting = .sortedKeys
          let text = String(decoding: try encoder.encode(saved), as: UTF8.self)
          try context.store.append([.put(.setting(key: ArrivalMachine.visitsKey, value: text))])
          visitsOwed.store(false, ordering: .releasing)
        } catch {
          // Showing the reminder matters more; the save is tried again at the next step.
          visitsOwed.store(true, ordering: .releasing)
          events.append(.degraded("could not save the visits reminded (tried again at the next step): \(error)"))
        }
      }
    }
    return (events, failure)
  }

  private func apply(_ command: ArrivalEffect.LocationCommand, unsaved: Bool) {
    switch command {
    case .startPrecise: if !unsaved { precise.startPreciseUpdates() }
    case .singleFix: if !unsaved { precise.requestSingleFix() }
    case .withdrawSingleFix: precise.withdrawSingleFix()
    case .stopPrecise: precise.stopPreciseUpdates()
    case .startReduced(let filter): precise.startReducedUpdates(distanceFilter: filter)
    case .stopReduced: precise.stopReducedUpdates()
    case .startVisits: precise.startVisitMonitoring()
    case .startSignificantChanges: precise.startSignificantChanges()
    case .stopSignificantChanges: precise.stopSignificantChanges()
    case .watchForMovement: precise.watchForMovement()
    case .stopWatchingForMovement: precise.stopWatchingForMovement()
    }
  }
}
