import Foundation
import Locking

/// Leases in memory, shared by the workers of one process (tests, the
/// simulator).
public final class InMemoryLeaseStore: LeaseStore {
  private let table = Locked<[String: VersionedLease]>([:])

  public init() {}

  public func all() throws -> [String: VersionedLease] { table.withLock { $0 } }

  public func put(_ key: String, _ lease: Lease, expected: UInt64?) throws -> UInt64? {
    table.withLock { table in
      guard table[key]?.revision == expected else { return nil }
      let revision = (table[key]?.revision ?? 0) + 1
      table[key] = VersionedLease(lease: lease, revision: revision)
      return revision
    }
  }
}
