import Foundation

/// Issues strictly increasing stamps for one replica, even when the wall
/// clock stalls or steps back, and moves past any stamp it has observed so a
/// merged remote edit is never "older" than a later local one.
public struct HybridLogicalClock: Sendable {
  public let replica: ReplicaID
  public private(set) var last: HLCTimestamp?

  public init(replica: ReplicaID, last: HLCTimestamp? = nil) {
    self.replica = replica
    self.last = last
  }

  public mutating func tick(now: Date) -> HLCTimestamp {
    let wall = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
    let next: HLCTimestamp
    if let last, last.wallMillis >= wall {
      if last.counter == UInt32.max {
        next = HLCTimestamp(wallMillis: last.wallMillis + 1, counter: 0, replica: replica)
      } else {
        next = HLCTimestamp(wallMillis: last.wallMillis, counter: last.counter + 1, replica: replica)
      }
    } else {
      next = HLCTimestamp(wallMillis: max(wall, 0), counter: 0, replica: replica)
    }
    last = next
    return next
  }

  public mutating func observe(_ stamp: HLCTimestamp) {
    guard let current = last else {
      last = HLCTimestamp(wallMillis: stamp.wallMillis, counter: stamp.counter, replica: replica)
      return
    }
    if stamp.wallMillis > current.wallMillis
      || (stamp.wallMillis == current.wallMillis && stamp.counter > current.counter)
    {
      last = HLCTimestamp(wallMillis: stamp.wallMillis, counter: stamp.counter, replica: replica)
    }
  }
}
