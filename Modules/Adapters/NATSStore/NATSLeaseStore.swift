import Domain
import Foundation
import Locking
import Partitions

/// Leases in a JetStream key-value bucket beside the stream (`WHILEHERE`
/// → bucket `WHILEHERE-leases`), replicated as the stream is and keeping
/// one revision per key. Compare-and-swap is the bucket's own: create only
/// if absent, update only at the revision read. A write refused for its
/// revision is a lost race (nil); anything else that fails is thrown.
public final class NATSLeaseStore: LeaseStore {
  public let location: NATSLocation
  private let bucket: Locked<NATSBucket>

  public init(_ location: NATSLocation) throws {
    self.location = location
    bucket = Locked(try NATSBucket("\(location.stream)-leases", on: location))
  }

  public func all() throws -> [String: VersionedLease] {
    try bucket.withLock { bucket in
      var table: [String: VersionedLease] = [:]
      for key in try bucket.keys() {
        if let entry = try bucket.read(key) { table[key] = Self.lease(entry) }
      }
      return table
    }
  }

  public func put(_ key: String, _ lease: Lease, expected: UInt64?) throws -> UInt64? {
    let data = try JSONEncoder().encode(lease)
    return try bucket.withLock { try $0.write(key, data, at: expected) }
  }

  /// A value that is no lease (written by something else) is a free key.
  private static func lease(_ entry: (value: Data, revision: UInt64)) -> VersionedLease {
    VersionedLease(lease: (try? JSONDecoder().decodeOutside(Lease.self, from: entry.value)) ?? Lease(owner: "", until: 0), revision: entry.revision)
  }
}
