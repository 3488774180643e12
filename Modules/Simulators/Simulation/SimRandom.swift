import Domain
import Foundation

/// A seeded generator with the distributions the world needs, so every run
/// with the same seed is identical.
public struct SimRandom: RandomNumberGenerator, Sendable {
  private var base: SplitMix64

  public init(seed: UInt64) { base = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x1234_5678) }

  public mutating func next() -> UInt64 { base.next() }

  public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

  public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + (range.upperBound - range.lowerBound) * unit()
  }

  public mutating func chance(_ probability: Double) -> Bool { unit() < probability }

  public mutating func gaussian(sigma: Double = 1) -> Double {
    let u1 = max(unit(), 1e-300)
    let u2 = unit()
    return sigma * sqrt(-2 * log(u1)) * cos(2 * .pi * u2)
  }

  /// Log-normal with the given median and 95th percentile.
  public mutating func logNormal(median: Double, p95: Double) -> Double {
    logNormal(median: median, upper: p95, z: 1.6449)
  }

  /// Log-normal with the given median and 90th percentile.
  public mutating func logNormal(median: Double, p90: Double) -> Double {
    logNormal(median: median, upper: p90, z: 1.2816)
  }

  /// `upper` is the quantile `z` standard deviations above the median.
  private mutating func logNormal(median: Double, upper: Double, z: Double) -> Double {
    let sigma = log(max(upper, median * 1.0001) / median) / z
    return median * exp(gaussian(sigma: sigma))
  }

  /// A generator for one draw of the world at one moment: the same `key`,
  /// `salt` and second give the same numbers whatever was drawn before, so
  /// two strategies (or two versions of the engine) that ask the phone for
  /// a fix at the same second get the same fix, and a comparison between
  /// them measures the strategies, not the order of their draws.
  public static func keyed(_ key: UInt64, _ salt: UInt64, at date: Date) -> SimRandom {
    let second = UInt64(bitPattern: Int64(date.timeIntervalSinceReferenceDate.rounded(.down)))
    var mixer = SplitMix64(seed: key ^ (salt &* 0xD6E8_FEB8_6659_FD93))
    return SimRandom(seed: mixer.next() ^ (second &* 0xA076_1D64_78BD_642F))
  }

  /// A stable 64-bit digest of a string (FNV-1a), for keyed draws: Swift's
  /// own hash is seeded per process.
  public static func digest(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
  }

  /// A child generator for one part of the world, so adding draws in one
  /// part does not shift every other part's numbers.
  public mutating func fork(_ salt: UInt64) -> SimRandom { SimRandom(seed: next() ^ salt) }
}
