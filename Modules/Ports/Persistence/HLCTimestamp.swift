import Domain
import Foundation

/// A hybrid logical clock stamp: wall time in milliseconds, a counter for
/// events within the same millisecond (or while the wall clock lags), and the
/// replica that made it. Ordered by all three, so any two stamps compare.
public struct HLCTimestamp: Hashable, Sendable, Comparable, CustomStringConvertible {
  public let wallMillis: Int64
  public let counter: UInt32
  public let replica: ReplicaID

  public init(wallMillis: Int64, counter: UInt32, replica: ReplicaID) {
    self.wallMillis = wallMillis
    self.counter = counter
    self.replica = replica
  }

  public static func < (a: Self, b: Self) -> Bool {
    if a.wallMillis != b.wallMillis { return a.wallMillis < b.wallMillis }
    if a.counter != b.counter { return a.counter < b.counter }
    return a.replica < b.replica
  }

  /// `WALLMILLIS-COUNTER-REPLICA`, zero-padded so text order is stamp order.
  public var description: String {
    let wall = String(wallMillis)
    let count = String(counter)
    return String(repeating: "0", count: max(0, 15 - wall.count)) + wall + "-"
      + String(repeating: "0", count: max(0, 6 - count.count)) + count + "-" + replica.rawValue
  }

  public init?(parsing text: String) {
    let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, let wall = Int64(parts[0]), wall >= 0, let count = UInt32(parts[1]),
      let replica = try? ReplicaID(String(parts[2]))
    else { return nil }
    self.init(wallMillis: wall, counter: count, replica: replica)
  }
}

extension HLCTimestamp: Codable {
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let stamp = HLCTimestamp(parsing: text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "invalid HLC timestamp '\(text)'"))
    }
    self = stamp
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
