import Domain
import Engine
import Foundation
import Geofencing

/// The location services of the simulated phone: significant-change
/// deliveries (≥ 500 m and ≥ 5 min apart by the OS's own coarse position,
/// and at least every 15 minutes) and precise fixes at 1 Hz while switched
/// on (a time to first fix, sessions that never get one or fail to start
/// from the background, accuracy as real traces show it with a third of
/// fixes outside it, outliers that still claim ordinary accuracy), with GPS
/// time and background wakes counted for the battery.
public final class SimulatedLocation: PreciseLocationControl, @unchecked Sendable {
  public struct Fix: Sendable {
    public let point: Coordinate
    public let accuracy: Double
  }

  private let world: WorldConfig
  private var random: SimRandom
  private let coarse: CoarsePositionProcess
  private var lastSignificant: (point: Coordinate, at: Date)?
  private var preciseOn = false
  private var firstFixAt: Date?
  private var preciseStartedAt: Date?
  public private(set) var preciseSeconds: TimeInterval = 0
  /// Seconds reduced-accuracy updates were on.
  public private(set) var reducedSeconds: TimeInterval = 0
  private var reducedFilter: Double?
  private var lastReduced: (point: Coordinate, at: Date)?
  private var visitsOn = false
  private var significantOn = false
  /// The stay under way (true positions), and a qualified stay's delivery.
  private var stay: (anchor: Coordinate, since: Date, reported: Bool)?
  private var pendingVisits: [(due: Date, visit: Visit)] = []
  /// Background wakes of the suspended app (region events, significant
  /// changes, visits, single fixes): each wakes it for `power.wakeSeconds`
  /// (Apple: about 10 s); what arrives meanwhile reaches the running app,
  /// wakes nothing and only keeps it up longer.
  public var wakes: Int { lock.withLock { wakesBy.values.reduce(0, +) } }
  /// The same by cause, for `--explain`.
  public var wakesByCause: [String: Int] { lock.withLock { wakesBy } }
  /// Seconds the app was kept awake by wakes (overlaps counted once).
  public var wakeSeconds: TimeInterval { lock.withLock { awakeSeconds } }
  private var wakesBy: [String: Int] = [:]
  private var wokenUntil: Date?
  private var awakeSeconds: TimeInterval = 0
  private let lock = NSLock()

  /// `coarse` is the OS's own position, shared with its region monitoring.
  public init(world: WorldConfig, coarse: CoarsePositionProcess, random: SimRandom) {
    self.world = world
    self.coarse = coarse
    self.random = random
  }

  /// Location services with a coarse position of their own.
  public convenience init(world: WorldConfig, random: SimRandom) {
    var random = random
    self.init(world: world, coarse: CoarsePositionProcess(config: world.coarsePosition, random: random.fork(78)), random: random)
  }

  public func startPreciseUpdates() {
    lock.withLock {
      guard !preciseOn else { return }
      preciseOn = true
      preciseStartedAt = nil
      firstFixAt = nil
    }
  }

  public func stopPreciseUpdates() { lock.withLock { preciseOn = false } }

  private var singleFixPending = false
  public func requestSingleFix() { lock.withLock { singleFixPending = true } }

  public var isPreciseOn: Bool { lock.withLock { preciseOn } }

  public func startReducedUpdates(distanceFilter: Double) {
    lock.withLock {
      if reducedFilter == nil { lastReduced = nil }
      reducedFilter = distanceFilter
    }
  }

  public func stopReducedUpdates() { lock.withLock { reducedFilter = nil } }

  public var isReducedOn: Bool { lock.withLock { reducedFilter != nil } }

  /// Whether the app is running rather than suspended: iOS keeps an app
  /// that receives location updates in the background running, so what
  /// arrives meanwhile wakes nothing. Called with the lock held.
  private var awake: Bool { preciseOn || reducedFilter != nil }

  /// The same, from outside.
  public var isAppAwake: Bool { lock.withLock { awake } }

  /// Something the OS delivers to the app at `now` (`cause` names it): a
  /// wake for a suspended app, nothing for one already running.
  public func deliver(_ cause: String, at now: Date, count: Int = 1) {
    lock.withLock { for _ in 0..<count { wake(cause, at: now) } }
  }

  /// Called with the lock held.
  private func wake(_ cause: String, at now: Date) {
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

  public func startVisitMonitoring() { lock.withLock { visitsOn = true } }
  public func startSignificantChanges() { lock.withLock { significantOn = true } }
  public func stopSignificantChanges() {
    lock.withLock {
      significantOn = false
      lastSignificant = nil
    }
  }

  /// One second of reduced-accuracy updates: counts their time, and every
  /// `refreshSeconds` returns the OS's coarse position if it moved the
  /// distance filter since the last one delivered (the first always comes).
  public func reducedFix(position: Coordinate, at now: Date) -> Fix? {
    lock.withLock {
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
  }

  /// What visit monitoring reports: a stay that began at `arrived` (still
  /// under way when `departed` is nil), where the OS's position put it.
  public struct Visit: Sendable {
    public let point: Coordinate
    public let accuracy: Double
    public let arrived: Date
    public let departed: Date?
  }

  /// One second of visit monitoring: a stay of `minimumStay` within
  /// `stayRadius` of where it began qualifies and is delivered after the
  /// latency; leaving a reported stay is delivered too. Each delivery is a wake.
  public func visit(position: Coordinate, at now: Date) -> Visit? {
    lock.withLock {
      guard visitsOn else { return nil }
      let config = world.visits
      if let current = stay, current.anchor.distance(to: position) > config.stayRadius {
        if current.reported {
          let seen = coarse.sample(current.anchor, at: now)
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
  }

  /// The significant-change delivery due now, if any (none while not started).
  public func significantChange(position: Coordinate, at now: Date) -> Fix? {
    lock.withLock {
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
  }

  /// One second of precise tracking: counts GPS time, returns a fix once the
  /// first fix is in. A single fix asked for while tracking is off comes now,
  /// charged as a few seconds of GPS.
  public func preciseFix(position: Coordinate, at now: Date) -> Fix? {
    lock.withLock {
      if !preciseOn, singleFixPending {
        singleFixPending = false
        preciseSeconds += world.gps.singleFixSeconds
        wake("single fix", at: now)
        return gpsFix(position)
      }
      guard preciseOn else { return nil }
      singleFixPending = false
      preciseSeconds += 1
      if preciseStartedAt == nil {
        preciseStartedAt = now
        let gps = world.gps
        let failed = random.chance(gps.backgroundStartFailure) || random.chance(gps.noFixChance)
        firstFixAt = failed ? .distantFuture : now.addingTimeInterval(random.logNormal(median: gps.firstFixMedian, p95: gps.firstFixP95))
      }
      guard let first = firstFixAt, now >= first else { return nil }
      return gpsFix(position)
    }
  }

  /// One GPS fix: accuracy as the real trace has it, the true error a 2-D
  /// Gaussian with `accuracyConfidence` of fixes inside the accuracy, or an
  /// outlier that reports an ordinary accuracy. Called with the lock held.
  private func gpsFix(_ position: Coordinate) -> Fix {
    let gps = world.gps
    let accuracy = min(1000, max(3, random.logNormal(median: gps.accuracyMedian, p90: gps.accuracyP90)))
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
