import Domain
import Engine
import Foundation
import Geofencing

/// The location services of the simulated phone: significant-change
/// deliveries (≥ 500 m and ≥ 5 min apart, cell/Wi-Fi accuracy) and precise
/// fixes at 1 Hz while switched on (a time to first fix, 5–20 m accuracy,
/// occasional outliers that still claim good accuracy), with the GPS time
/// counted for the battery.
public final class SimulatedLocation: PreciseLocationControl, @unchecked Sendable {
  public struct Fix: Sendable {
    public let point: Coordinate
    public let accuracy: Double
  }

  private let world: WorldConfig
  private var random: SimRandom
  private var lastSignificant: (point: Coordinate, at: Date)?
  private var preciseOn = false
  private var firstFixAt: Date?
  private var preciseStartedAt: Date?
  public private(set) var preciseSeconds: TimeInterval = 0
  private let lock = NSLock()

  public init(world: WorldConfig, random: SimRandom) {
    self.world = world
    self.random = random
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

  /// The significant-change delivery due now, if any.
  public func significantChange(position: Coordinate, at now: Date) -> Fix? {
    lock.withLock {
      let config = world.significantChange
      if let last = lastSignificant {
        guard now.timeIntervalSince(last.at) >= config.minInterval, last.point.distance(to: position) >= config.minDistance else { return nil }
      }
      lastSignificant = (position, now)
      let noisy = position.offset(meters: abs(random.gaussian(sigma: config.error)), bearing: random.uniform(0...(2 * .pi)))
      return Fix(point: noisy, accuracy: config.accuracy)
    }
  }

  /// Seconds of GPS one single fix costs.
  static let singleFixSeconds = 5.0

  /// One second of precise tracking: counts GPS time, returns a fix once the
  /// first fix is in. A single fix asked for while tracking is off comes now,
  /// charged as a few seconds of GPS.
  public func preciseFix(position: Coordinate, at now: Date) -> Fix? {
    lock.withLock {
      if !preciseOn, singleFixPending {
        singleFixPending = false
        preciseSeconds += Self.singleFixSeconds
        let accuracy = random.uniform(10...30)
        return Fix(point: position.offset(meters: abs(random.gaussian(sigma: accuracy / 2)), bearing: random.uniform(0...(2 * .pi))), accuracy: accuracy)
      }
      guard preciseOn else { return nil }
      singleFixPending = false
      preciseSeconds += 1
      if preciseStartedAt == nil {
        preciseStartedAt = now
        let gps = world.gps
        firstFixAt = random.chance(gps.noFixChance) ? .distantFuture : now.addingTimeInterval(random.logNormal(median: gps.firstFixMedian, p95: gps.firstFixP95))
      }
      guard let first = firstFixAt, now >= first else { return nil }
      let gps = world.gps
      let accuracy = random.uniform(gps.accuracyMin...gps.accuracyMax)
      if random.chance(gps.outlierChance) {
        return Fix(point: position.offset(meters: random.uniform(gps.outlierMin...gps.outlierMax), bearing: random.uniform(0...(2 * .pi))), accuracy: accuracy)
      }
      return Fix(point: position.offset(meters: abs(random.gaussian(sigma: accuracy / 2)), bearing: random.uniform(0...(2 * .pi))), accuracy: accuracy)
    }
  }

}
