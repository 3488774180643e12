import CNATS
import Foundation
import Locking
import Partitions

/// Messages for people's phones in a JetStream key-value bucket beside the
/// stream (`WHILEHERE` → `WHILEHERE-mail`, one key per person, replicated
/// as the stream is): a person's messages are one value, one message a
/// line. Leaving and collecting are compare-and-swap on the key's
/// revision, retried when another front or worker wrote in between.
public final class NATSCommandMailbox: CommandMailbox {
  public let location: NATSLocation
  /// Several connections to the bucket: every HTTP answer collects, and
  /// one round trip should not wait for another's.
  private let buckets: NATSConnectionPool<Bucket>

  /// The connection and bucket, used under the lock only.
  private final class Bucket {
    let connection: NATSConnection
    var handle: OpaquePointer?

    init(_ location: NATSLocation) throws {
      connection = try NATSConnection(servers: location.servers, timeoutMilliseconds: 5000)
      try NATSConnection.check(
        "open the mailbox bucket \(location.stream)-mail",
        whilehere_nats_key_value(&handle, connection.context, "\(location.stream)-mail", Int32(location.replicas)))
    }

    deinit { if let handle { kvStore_Destroy(handle) } }

    /// The key's value and revision; nil when it has none.
    func read(_ key: String) throws -> (value: Data, revision: UInt64)? {
      var entry: OpaquePointer?
      let status = kvStore_Get(&entry, handle, key)
      if status == NATS_NOT_FOUND { return nil }
      try NATSConnection.check("read the mailbox of \(key)", status)
      defer { kvEntry_Destroy(entry) }
      let length = Int(kvEntry_ValueLen(entry))
      return (length > 0 ? Data(bytes: kvEntry_Value(entry), count: length) : Data(), kvEntry_Revision(entry))
    }

    /// Writes `value` if the key is still at `revision` (nil: absent); false when another writer got there first.
    func write(_ key: String, _ value: Data, at revision: UInt64?) throws -> Bool {
      var written: UInt64 = 0
      let status = value.withUnsafeBytes { bytes in
        revision.map { kvStore_Update(&written, handle, key, bytes.baseAddress, Int32(bytes.count), $0) }
          ?? kvStore_Create(&written, handle, key, bytes.baseAddress, Int32(bytes.count))
      }
      if status == NATS_OK { return true }
      let detail = NATSConnection.lastError()
      if try read(key)?.revision != revision { return false }
      throw NATSConnection.Failure(operation: "write the mailbox of \(key)", status: status, code: jsErrCode(0), detail: detail)
    }
  }

  public init(_ location: NATSLocation, connections: Int = 8) throws {
    self.location = location
    buckets = try NATSConnectionPool(count: connections) { try Bucket(location) }
  }

  public func leave(_ messages: [Data], for person: String) throws {
    guard !messages.isEmpty else { return }
    guard NATSLocation.isToken(person) else { throw QueueRefusal(description: "'\(person)' cannot name a mailbox") }
    guard !messages.contains(where: { $0.contains(10) }) else { throw QueueRefusal(description: "a message for \(person) spans lines") }
    let added = Data(messages.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n").utf8)
    try swap(person) { current in current.isEmpty ? added : current + Data([10]) + added }
  }

  public func collect(for person: String) throws -> [Data] {
    guard NATSLocation.isToken(person) else { return [] }
    var taken = Data()
    try swap(person) { current in
      taken = current
      return Data()
    }
    return taken.isEmpty ? [] : taken.split(separator: 10).map { Data($0) }
  }

  /// Replaces the key's value with `change(value)`, again from a fresh
  /// read whenever another writer got there first.
  private func swap(_ key: String, _ change: (Data) -> Data) throws {
    try buckets.withOne { bucket in
      for _ in 0..<100 {
        let current = try bucket.read(key)
        let next = change(current?.value ?? Data())
        if current == nil && next.isEmpty { return }
        if try bucket.write(key, next, at: current?.revision) { return }
      }
      throw QueueRefusal(description: "the mailbox of \(key) kept changing under 100 writes")
    }
  }
}
