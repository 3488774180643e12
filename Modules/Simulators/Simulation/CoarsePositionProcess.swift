import Domain
import Foundation
import Locking

/// The position the OS believes without GPS, shared by its region
/// monitoring, significant-change and reduced-accuracy services: Wi-Fi or
/// cell positioning in stretches, an error that drifts (a Gauss–Markov
/// process per axis, so a wrong position persists for a while instead of
/// being redrawn each time), and rare jumps of kilometres.
public final class CoarsePositionProcess: Sendable {
  public enum Source: String, Sendable { case wifi, cell }

  public struct Sample: Sendable {
    public let point: Coordinate
    /// What the OS reports as its accuracy.
    public let accuracy: Double
    public let source: Source
  }

  private let process: Locked<Process>

  public init(config: WorldConfig.CoarsePosition, random: SimRandom) {
    process = Locked(Process(config: config, random: random))
  }

  /// The OS's position at `now` for a device truly at `truth`.
  public func sample(_ truth: Coordinate, at now: Date) -> Sample {
    process.withLock { $0.sample(truth, at: now) }
  }
}

/// The process's state and its one step.
private struct Process {
  let config: WorldConfig.CoarsePosition
  var random: SimRandom
  var last: Date?
  var cached: (at: Date, truth: Coordinate, sample: CoarsePositionProcess.Sample)?
  var source: CoarsePositionProcess.Source
  var sourceUntil: Date?
  /// Metres east and north.
  var error: (Double, Double)
  var jump: (east: Double, north: Double, until: Date)?
  var nextJump: Date?

  init(config: WorldConfig.CoarsePosition, random: SimRandom) {
    self.config = config
    self.random = random
    source = self.random.unit() < config.wifiShare ? .wifi : .cell
    error = (0, 0)
    error = fresh(source)
  }

  mutating func sample(_ truth: Coordinate, at now: Date) -> CoarsePositionProcess.Sample {
    if let cached, cached.at == now, cached.truth == truth { return cached.sample }
    advance(to: now)
    var east = error.0
    var north = error.1
    if let jump, now < jump.until {
      east += jump.east
      north += jump.north
    }
    let distance = (east * east + north * north).squareRoot()
    let point = distance > 0 ? truth.offset(meters: distance, bearing: atan2(east, north)) : truth
    let sample = CoarsePositionProcess.Sample(point: point, accuracy: source == .wifi ? config.wifiAccuracy : config.cellAccuracy, source: source)
    cached = (now, truth, sample)
    return sample
  }

  private func sigma(_ source: CoarsePositionProcess.Source) -> Double { source == .wifi ? config.wifiSigma : config.cellSigma }

  private mutating func fresh(_ source: CoarsePositionProcess.Source) -> (Double, Double) {
    (random.gaussian(sigma: sigma(source)), random.gaussian(sigma: sigma(source)))
  }

  /// Mean stretch of each source, so that Wi-Fi holds `wifiShare` of the
  /// time; a share of 0 or 1 keeps one source for good.
  private func stretch(_ source: CoarsePositionProcess.Source) -> Double {
    let share = config.wifiShare
    if share >= 1 || share <= 0 { return .infinity }
    return source == .wifi ? config.sourceStretch * share / (1 - share) : config.sourceStretch
  }

  private mutating func exponential(mean: Double) -> Double { mean.isFinite ? -mean * log(max(random.unit(), 1e-12)) : .infinity }

  private mutating func advance(to now: Date) {
    guard let previous = last else {
      last = now
      sourceUntil = now.addingTimeInterval(exponential(mean: stretch(source)))
      nextJump = config.jumpsPerHour > 0 ? now.addingTimeInterval(exponential(mean: 3600 / config.jumpsPerHour)) : nil
      return
    }
    // One second at a time, so the position at a moment is the same
    // however often it was asked for before: strategies that sample it at
    // different times see the same OS.
    var at = previous
    while at < now {
      let next = min(at.addingTimeInterval(1), now)
      step(over: next.timeIntervalSince(at), to: next)
      at = next
    }
    last = now
  }

  private mutating func step(over dt: TimeInterval, to now: Date) {
    if let until = sourceUntil, now >= until {
      source = source == .wifi ? .cell : .wifi
      sourceUntil = now.addingTimeInterval(exponential(mean: stretch(source)))
      error = fresh(source)
    } else {
      // The exact update of an Ornstein–Uhlenbeck process over dt.
      let tau = source == .wifi ? config.wifiCorrelation : config.cellCorrelation
      let keep = exp(-dt / max(tau, 1e-3))
      let spread = sigma(source) * (1 - keep * keep).squareRoot()
      error = (error.0 * keep + random.gaussian(sigma: spread), error.1 * keep + random.gaussian(sigma: spread))
    }
    if let next = nextJump, now >= next {
      let distance = random.uniform(config.jumpMin...max(config.jumpMin, config.jumpMax))
      let bearing = random.uniform(0...(2 * .pi))
      let seconds = random.uniform(config.jumpSecondsMin...max(config.jumpSecondsMin, config.jumpSecondsMax))
      jump = (distance * sin(bearing), distance * cos(bearing), now.addingTimeInterval(seconds))
      nextJump = now.addingTimeInterval(exponential(mean: 3600 / config.jumpsPerHour))
    }
  }

}
