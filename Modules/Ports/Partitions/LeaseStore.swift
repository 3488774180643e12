import Foundation

/// A small shared table of leases with compare-and-swap writes: what
/// workers use to agree, without a coordinator, on who owns which
/// partition (JetStream's key-value store in a cluster, memory in tests).
public protocol LeaseStore: Sendable {
  /// Every key with its lease and revision. A revision is positive and
  /// grows with every write of that key.
  func all() throws -> [String: VersionedLease]
  /// Writes `lease` under `key` only if the key still is at `expected`
  /// (nil: only if the key does not exist yet). Returns the new revision,
  /// or nil when another writer got there first: nothing was written.
  /// Throws only when the store cannot be reached.
  func put(_ key: String, _ lease: Lease, expected: UInt64?) throws -> UInt64?
}

/// A lease with the revision it was read at.
public struct VersionedLease: Equatable, Sendable {
  public var lease: Lease
  public var revision: UInt64

  public init(lease: Lease, revision: UInt64) {
    self.lease = lease
    self.revision = revision
  }
}
