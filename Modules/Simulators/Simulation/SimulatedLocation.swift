import Domain
import Engine
import Foundation
import Geofencing
import Locking

/// The location services of the simulated phone: significant-change
/// deliveries (≥ 500 m and ≥ 5 min apart by the OS's own coarse position,
/// and at least every 15 minutes) and precise fixes at 1 Hz while switched
/// on (a time to first fix, sessions that never get one or fail to start
/// from the background, accuracy as real traces show it with a third of
/// fixes outside it, outliers that still claim ordinary accuracy), with GPS
/// time and background wakes counted for the battery.
public final class SimulatedLocation: PreciseLocationControl, Sendable {
  public struct Fix: Sendable {
    public let point: Coordinate
    public let accuracy: Double
  }

  /// What visit monitoring reports: a stay that began at `arrived` (still
  /// under way when `departed` is nil), where the OS's position put it.
  public struct Visit: Sendable {
    public let point: Coordinate
    public let accuracy: Double
    public let arrived: Date
    public let departed: Date?
  }

  private let state: Locked<Services>

  /// `coarse` is the OS's own position, shared with its region monitoring.
  /// `movementByGPS`: the movement watch is live updates (iOS: GPS to start
  /// and a fix when it resumes); false, activity transitions (Android: a
  /// wake and the motion history, no position).
  public init(world: WorldConfig, coarse: CoarsePositionProcess, random: SimRandom, movementByGPS: Bool = true) {
    state = Locked(Services(world: world, coarse: coarse, random: random, movementByGPS: movementByGPS))
  }

  /// Location services with a coarse position of their own.
  public convenience init(world: WorldConfig, random: SimRandom) {
    var random = random
    self.init(world: world, coarse: CoarsePositionProcess(config: world.coarsePosition, random: random.fork(78)), random: random)
  }

  public var preciseSeconds: TimeInterval { state.withLock { $0.preciseSeconds } }
  /// Seconds reduced-accuracy updates were on.
  public var reducedSeconds: TimeInterval { state.withLock { $0.reducedSeconds } }
  /// Background wakes of the suspended app (region events, significant
  /// changes, visits, single fixes): each wakes it for `power.wakeSeconds`
  /// (Apple: about 10 s); what arrives meanwhile reaches the running app,
  /// wakes nothing and only keeps it up longer.
  public var wakes: Int { state.withLock { $0.wakes } }
  /// The same by cause, for `--explain`.
  public var wakesByCause: [String: Int] { state.withLock { $0.wakesByCause } }
  /// Seconds the app was kept awake by wakes (overlaps counted once).
  public var wakeSeconds: TimeInterval { state.withLock { $0.wakeSeconds } }
  public var isPreciseOn: Bool { state.withLock { $0.isPreciseOn } }
  public var isReducedOn: Bool { state.withLock { $0.isReducedOn } }
  /// Whether the app is running rather than suspended: iOS keeps an app
  /// that receives location updates in the background running, so what
  /// arrives meanwhile wakes nothing.
  public var isAppAwake: Bool { state.withLock { $0.isAppAwake } }

  public func startPreciseUpdates() { state.withLock { $0.startPreciseUpdates() } }
  public func stopPreciseUpdates() { state.withLock { $0.stopPreciseUpdates() } }
  public func requestSingleFix() { state.withLock { $0.requestSingleFix() } }
  /// iOS takes back a `requestLocation` only by stopping all updates: the fix comes anyway.
  public func withdrawSingleFix() {}
  public func startReducedUpdates(distanceFilter: Double) { state.withLock { $0.startReducedUpdates(distanceFilter: distanceFilter) } }
  public func stopReducedUpdates() { state.withLock { $0.stopReducedUpdates() } }
  public func startVisitMonitoring() { state.withLock { $0.startVisitMonitoring() } }
  public func startSignificantChanges() { state.withLock { $0.startSignificantChanges() } }
  public func stopSignificantChanges() { state.withLock { $0.stopSignificantChanges() } }
  /// iOS's live updates (iOS 17) pause for a still device and resume when
  /// it moves; Android's activity transitions report leaving STILL.
  public var offersMovementWatch: Bool { true }
  /// Live updates: a GPS update to start and one when the device moves.
  public var movementWatchCharge: TimeInterval { state.withLock { $0.movementByGPS ? 2 * $0.world.gps.singleFixSeconds : 0 } }
  public func watchForMovement() { state.withLock { $0.watchForMovement() } }
  public func stopWatchingForMovement() { state.withLock { $0.watchingMovement = false } }
  /// Whether a movement watch runs (paused or not).
  public var isWatchingForMovement: Bool { state.withLock { $0.watchingMovement } }

  /// The motion coprocessor's history changed (still or moving): what
  /// pauses and resumes live updates.
  public func motionChanged(still: Bool) { state.withLock { $0.deviceStill = still } }
  /// Whether the movement watch wakes the app at `now`, and the fix it
  /// brings where it brings one (see `Services.movementWake`).
  public func movementWake(position: Coordinate, at now: Date) -> (woke: Bool, fix: Fix?) {
    state.withLock { $0.movementWake(position: position, at: now) }
  }

  /// Something the OS delivers to the app at `now` (`cause` names it): a
  /// wake for a suspended app, nothing for one already running.
  public func deliver(_ cause: String, at now: Date, count: Int = 1) { state.withLock { $0.deliver(cause, at: now, count: count) } }

  /// One second of reduced-accuracy updates (see `Services.reducedFix`).
  public func reducedFix(position: Coordinate, at now: Date) -> Fix? { state.withLock { $0.reducedFix(position: position, at: now) } }
  /// The OS's visit monitoring at `now` (see `Services.visit`).
  public func visit(position: Coordinate, at now: Date) -> Visit? { state.withLock { $0.visit(position: position, at: now) } }
  /// A significant-change delivery due at `now`, if any.
  public func significantChange(position: Coordinate, at now: Date) -> Fix? { state.withLock { $0.significantChange(position: position, at: now) } }
  /// A GPS fix at `now`, while precise updates run or a single fix is due.
  public func preciseFix(position: Coordinate, at now: Date) -> Fix? { state.withLock { $0.preciseFix(position: position, at: now) } }
}

/// The location services' state and rules; the class above holds them behind one lock.
private struct Services {
  typealias Fix = SimulatedLocation.Fix
  typealias Visit = SimulatedLocation.Visit

  let world: WorldConfig
  /// Every draw is keyed by this and the second it happens at
  /// (`SimRandom.keyed`), never by how many came before.
  let key: UInt64
  let coarse: CoarsePositionProcess
  var lastSignificant: (point: Coordinate, at: Date)?
  var preciseOn = false
  var firstFixAt: Date?
  var preciseStartedAt: Date?
  var preciseSeconds: TimeInterval = 0
  /// Seconds reduced-accuracy updates were on.
  var reducedSeconds: TimeInterval = 0
  var reducedFilter: Double?
  var lastReduced: (point: Coordinate, at: Date)?
  var visitsOn = false
  var significantOn = false
  /// The stay under way (true positions), and a qualified stay's delivery.
  var stay: (anchor: Coordinate, since: Date, reported: Bool)?
  var pendingVisits: [(due: Date, visit: SimulatedLocation.Visit)] = []
  var wakes: Int { wakesBy.values.reduce(0, +) }
  var wakesByCause: [String: Int] { wakesBy }
  var wakeSeconds: TimeInterval { awakeSeconds }
  var wakesBy: [String: Int] = [:]
  var wokenUntil: Date?
  var awakeSeconds: TimeInterval = 0

  /// The movement watch: live updates (GPS) or activity transitions.
  let movementByGPS: Bool

  init(world: WorldConfig, coarse: CoarsePositionProcess, random: SimRandom, movementByGPS: Bool) {
    self.world = world
    self.coarse = coarse
    self.movementByGPS = movementByGPS
    var random = random
    key = random.next()
  }

  mutating func startPreciseUpdates() {
    guard !preciseOn else { return }
    preciseOn = true
    preciseStartedAt = nil
    firstFixAt = nil
  }

  mutating func stopPreciseUpdates() { preciseOn = false }

  var singleFixPending = false
  mutating func requestSingleFix() { singleFixPending = true }

  var isPreciseOn: Bool { preciseOn }

  mutating func startReducedUpdates(distanceFilter: Double) {
    if reducedFilter == nil { lastReduced = nil }
    reducedFilter = distanceFilter
  }

  mutating func stopReducedUpdates() { reducedFilter = nil }

  var isReducedOn: Bool { reducedFilter != nil }

  /// Whether the app is running rather than suspended: iOS keeps an app
  /// that receives location updates in the background running, so what
  /// arrives meanwhile wakes nothing. 
  var awake: Bool { preciseOn || reducedFilter != nil }

  /// The same, from outside.
  var isAppAwake: Bool { awake }

  /// Something the OS delivers to the app at `now` (`cause` names it): a
  /// wake for a suspended app, nothing for one already running.
  mutating func deliver(_ cause: String, at now: Date, count: Int = 1) {
    for _ in 0..<count { wake(cause, at: now) }
  }

  /// 
  mutating func wake(_ cause: String, at now: Date) {
    guard !awake else { return }
    let window = world.power.wakeSeconds
    if world.power.wakesOverlap, let until = wokenUntil, now < until {
      awakeSeconds += now.addingTimeInterval(window).timeIntervalSince(until)
    } else {
      wakesBy[cause, default: 0] += 1
      awakeSeconds += window
    }
    wokenUntil = now.addingTimeInterval(window)
  }

  /// Live updates watching for movement, paused by the OS while the
  /// device stays still.
  var watchingMovement = false
  /// What the motion history says now.
  var deviceStill = false
  /// The second the phone last stepped through (keys the watch's draw).
  var lastSecond: Date?

  /// Starting live updates costs one GPS update before the OS can find
  /// the device stationary and pause them (the engine starts the watch
  /// only for a device its motion history holds still). That the pause and
  /// the resumption follow the motion history (`motion.*`) is an
  /// *assumption*: Apple documents the pause, not its delays. Android's
  /// activity transitions need no location at all (the same assumption
  /// for when they come).
  mutating func watchForMovement() {
    guard !watchingMovement else { return }
    if movementByGPS {
      // Started from the background, like a session: it can fail outright (the app is not told).
      var random = SimRandom.keyed(key, 45, at: lastSecond ?? .distantPast)
      guard !random.chance(world.gps.backgroundStartFailure) else { return }
      preciseSeconds += world.gps.singleFixSeconds
    }
    watchingMovement = true
  }

  /// One second of the movement watch: once the motion history says the
  /// device moves, the app is woken; live updates bring their first
  /// update (a GPS fix, `gps.singleFixSeconds`), activity transitions no
  /// position. The watch ends there, as the app stops it.
  mutating func movementWake(position: Coordinate, at now: Date) -> (woke: Bool, fix: SimulatedLocation.Fix?) {
    lastSecond = now
    guard watchingMovement, !deviceStill else { return (false, nil) }
    watchingMovement = false
    guard movementByGPS else {
      wake("activity transition", at: now)
      return (true, nil)
    }
    preciseSeconds += world.gps.singleFixSeconds
    wake("live update", at: now)
    return (true, gpsFix(position, at: now))
  }

  mutating func startVisitMonitoring() { visitsOn = true }
  mutating func startSignificantChanges() { significantOn = true }
  mutating func stopSignificantChanges() {
    significantOn = false
    lastSignificant = nil
  }

  /// One second of reduced-accuracy updates: counts their time, and every
  /// `refreshSeconds` returns the OS's coarse position if it moved the
  /// distance filter since the last one delivered (the first always comes).
  mutating func reducedFix(position: Coordinate, at now: Date) -> SimulatedLocation.Fix? {
    guard let filter = reducedFilter else { return nil }
    reducedSeconds += 1
    let refresh = max(1, world.reducedAccuracy.refreshSeconds)
    if let last = lastReduced, now.timeIntervalSince(last.at) < refresh { return nil }
    let seen = coarse.sample(position, at: now)
    if let last = lastReduced, last.point.distance(to: seen.point) < filter {
      lastReduced = (last.point, now)
      return nil
    }
    lastReduced = (seen.point, now)
    return Fix(point: seen.point, accuracy: seen.accuracy)
  }


  /// One second of visit monitoring: a stay of `minimumStay` within
  /// `stayRadius` of where it began qualifies and is delivered after the
  /// latency; leaving a reported stay is delivered too. Each delivery is a wake.
  mutating func visit(position: Coordinate, at now: Date) -> SimulatedLocation.Visit? {
    guard visitsOn else { return nil }
    let config = world.visits
    if let current = stay, current.anchor.distance(to: position) > config.stayRadius {
      if current.reported {
        let seen = coarse.sample(current.anchor, at: now)
        var random = SimRandom.keyed(key, 41, at: now)
        pendingVisits.append(
          (now.addingTimeInterval(random.logNormal(median: config.latencyMedian, p95: config.latencyP95)),
            Visit(point: seen.point, accuracy: seen.accuracy, arrived: current.since, departed: now)))
      }
      stay = nil
    }
    if stay == nil { stay = (position, now, false) }
    if let current = stay, !current.reported, now.timeIntervalSince(current.since) >= config.minimumStay {
      stay?.reported = true
      let seen = coarse.sample(position, at: now)
      var random = SimRandom.keyed(key, 42, at: now)
      pendingVisits.append(
        (now.addingTimeInterval(random.logNormal(median: config.latencyMedian, p95: config.latencyP95)),
          Visit(point: seen.point, accuracy: seen.accuracy, arrived: current.since, departed: nil)))
    }
    guard let index = pendingVisits.firstIndex(where: { $0.due <= now }) else { return nil }
    var visit = pendingVisits.remove(at: index).visit
    // A stay's arrival delivered after it ended says so.
    if visit.departed == nil, let current = stay, current.since != visit.arrived {
      visit = Visit(point: visit.point, accuracy: visit.accuracy, arrived: visit.arrived, departed: now)
    }
    wake("visit", at: now)
    return visit
  }

  /// The significant-change delivery due now, if any (none while not started).
  mutating func significantChange(position: Coordinate, at now: Date) -> SimulatedLocation.Fix? {
    guard significantOn else { return nil }
    let config = world.significantChange
    let seen = coarse.sample(position, at: now)
    if let last = lastSignificant {
      let since = now.timeIntervalSince(last.at)
      guard since >= config.maxInterval || (since >= config.minInterval && last.point.distance(to: seen.point) >= config.minDistance) else {
        return nil
      }
    }
    lastSignificant = (seen.point, now)
    wake("significant change", at: now)
    return Fix(point: seen.point, accuracy: seen.accuracy)
  }

  /// One second of precise tracking: counts GPS time, returns a fix once the
  /// first fix is in. A single fix asked for while tracking is off comes now,
  /// charged as a few seconds of GPS.
  mutating func preciseFix(position: Coordinate, at now: Date) -> SimulatedLocation.Fix? {
    dwell(position, at: now)
    if !preciseOn, singleFixPending {
      singleFixPending = false
      preciseSeconds += world.gps.singleFixSeconds
      wake("single fix", at: now)
      return gpsFix(position, at: now)
    }
    guard preciseOn else { return nil }
    singleFixPending = false
    preciseSeconds += 1
    if preciseStartedAt == nil {
      preciseStartedAt = now
      let gps = world.gps
      var random = SimRandom.keyed(key, 43, at: now)
      let failed = random.chance(gps.backgroundStartFailure) || random.chance(gps.noFixChance)
      firstFixAt = failed ? .distantFuture : now.addingTimeInterval(random.logNormal(median: gps.firstFixMedian, p95: gps.firstFixP95))
    }
    guard let first = firstFixAt, now >= first else { return nil }
    return gpsFix(position, at: now)
  }

  /// Where the person has stood since when (true positions, updated every
  /// second through `preciseFix`): what says they are inside a building.
  var standing: (anchor: Coordinate, since: Date)?

  mutating func dwell(_ position: Coordinate, at now: Date) {
    if let current = standing, current.anchor.distance(to: position) <= world.gps.indoorRadius { return }
    standing = (position, now)
  }

  /// Since when the person has been inside (see `GPS.indoorAfter`), or nil outside.
  func indoorsSince(at now: Date) -> Date? {
    guard let current = standing, now.timeIntervalSince(current.since) >= world.gps.indoorAfter else { return nil }
    return current.since
  }

  /// One GPS fix: accuracy as the real trace has it, the true error a 2-D
  /// Gaussian with `accuracyConfidence` of fixes inside the accuracy, or an
  /// outlier that reports an ordinary accuracy. Indoors (`GPS.indoorAfter`)
  /// the stay decides once whether satellites reach the phone: if they do,
  /// accuracy is `indoorAccuracyFactor` times worse; if not, the fix is
  /// the OS's Wi-Fi or cell position.
  func gpsFix(_ position: Coordinate, at now: Date) -> SimulatedLocation.Fix {
    let gps = world.gps
    var factor = 1.0
    if let inside = indoorsSince(at: now) {
      var building = SimRandom.keyed(key, 46, at: inside)
      guard building.chance(gps.indoorGPSChance) else {
        let seen = coarse.sample(position, at: now)
        return Fix(point: seen.point, accuracy: seen.accuracy)
      }
      factor = max(1, gps.indoorAccuracyFactor)
    }
    var random = SimRandom.keyed(key, 44, at: now)
    let accuracy = min(1000, max(3, factor * random.logNormal(median: gps.accuracyMedian, p90: gps.accuracyP90)))
    let bearing = random.uniform(0...(2 * .pi))
    if random.chance(gps.outlierChance) {
      return Fix(point: position.offset(meters: random.uniform(gps.outlierMin...max(gps.outlierMin, gps.outlierMax)), bearing: bearing), accuracy: accuracy)
    }
    // A Rayleigh radius: P(r ≤ accuracy) = confidence.
    let confidence = min(max(gps.accuracyConfidence, 0.01), 0.999)
    let perAxis = accuracy / (-2 * log(1 - confidence)).squareRoot()
    let radius = perAxis * (-2 * log(max(random.unit(), 1e-12))).squareRoot()
    return Fix(point: position.offset(meters: radius, bearing: bearing), accuracy: accuracy)
  }
}
