import CNATS
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
  private let guarded: Locked<Handle>

  /// The connection and bucket, used under the lock only.
  private final class Handle {
    let connection: NATSConnection
    var bucket: OpaquePointer?

    init(_ location: NATSLocation) throws {
      connection = try NATSConnection(servers: location.servers, timeoutMilliseconds: 5000)
      try NATSConnection.check(
        "open the lease bucket \(location.stream)-leases",
        whilehere_nats_key_value(&bucket, connection.context, "\(location.stream)-leases", Int32(location.replicas)))
    }

    deinit { if let bucket { kvStore_Destroy(bucket) } }
  }

  public init(_ location: NATSLocation) throws {
    self.location = location
    guarded = Locked(try Handle(location))
  }

  public func all() throws -> [String: VersionedLease] {
    try guarded.withLock { handle in
      var list = kvKeysList()
      let status = kvStore_Keys(&list, handle.bucket, nil)
      if status == NATS_NOT_FOUND { return [:] }
      try NATSConnection.check("list the leases", status)
      defer { kvKeysList_Destroy(&list) }
      var table: [String: VersionedLease] = [:]
      for index in 0..<Int(list.Count) {
        guard let pointer = list.Keys[index] else { continue }
        let key = String(cString: pointer)
        if let entry = try Self.read(key, handle) { table[key] = entry }
      }
      return table
    }
  }

  public func put(_ key: String, _ lease: Lease, expected: UInt64?) throws -> UInt64? {
    let data = try JSONEncoder().encode(lease)
    return try guarded.withLock { handle in
      var revision: UInt64 = 0
      let status = data.withUnsafeBytes { bytes in
        expected.map { kvStore_Update(&revision, handle.bucket, key, bytes.baseAddress, Int32(bytes.count), $0) }
          ?? kvStore_Create(&revision, handle.bucket, key, bytes.baseAddress, Int32(bytes.count))
      }
      if status == NATS_OK { return revision }
      // Refused: if the key moved on from what was expected, another
      // writer won; if not, the store could not be reached or answered.
      let detail = NATSConnection.lastError()
      if try Self.read(key, handle)?.revision != expected { return nil }
      throw NATSConnection.Failure(operation: "write the lease \(key)", status: status, code: jsErrCode(0), detail: detail)
    }
  }

  private static func read(_ key: String, _ handle: Handle) throws -> VersionedLease? {
    var entry: OpaquePointer?
    let status = kvStore_Get(&entry, handle.bucket, key)
    if status == NATS_NOT_FOUND { return nil }
    try NATSConnection.check("read the lease \(key)", status)
    defer { kvEntry_Destroy(entry) }
    let length = Int(kvEntry_ValueLen(entry))
    let bytes = length > 0 ? Data(bytes: kvEntry_Value(entry), count: length) : Data()
    // A value that is no lease (written by something else) is a free key.
    let lease = (try? JSONDecoder().decodeOutside(Lease.self, from: bytes)) ?? Lease(owner: "", until: 0)
    return VersionedLease(lease: lease, revision: kvEntry_Revision(entry))
  }
}
