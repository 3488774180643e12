import CNATS
import Foundation

/// One JetStream key-value bucket on its own connection, with the calls
/// leases and mailboxes need: every key, a key's value and revision, and
/// compare-and-swap writes. Not thread-safe; its owner serialises calls.
final class NATSBucket {
  let name: String
  private let connection: NATSConnection
  private var handle: OpaquePointer?

  /// Opens `name` (one revision kept per key, replicated as `location`'s
  /// stream), making it if it does not exist yet.
  init(_ name: String, on location: NATSLocation) throws {
    self.name = name
    connection = try NATSConnection(servers: location.servers, timeoutMilliseconds: 5000)
    try NATSConnection.check("open the bucket \(name)", whilehere_nats_key_value(&handle, connection.context, name, Int32(location.replicas)))
  }

  deinit { if let handle { kvStore_Destroy(handle) } }

  /// Every key holding a value, from the bucket's stream's subjects in one
  /// request. The client's own key listing makes a consumer on the stream
  /// each time, which needs the cluster's meta leader: with a node just
  /// stopped and the others busy that timed out round after round.
  func keys() throws -> [String] {
    var info: UnsafeMutablePointer<jsStreamInfo>?
    var code = jsErrCode(0)
    let prefix = "$KV.\(name)."
    let status = whilehere_nats_subjects(&info, connection.context, "KV_\(name)", prefix + ">", &code)
    defer { if let info { jsStreamInfo_Destroy(info) } }
    if status == NATS_NOT_FOUND { return [] }
    guard status == NATS_OK else {
      throw NATSConnection.Failure(operation: "list the keys of \(name)", status: status, code: code, detail: NATSConnection.lastError())
    }
    guard let subjects = info?.pointee.State.Subjects?.pointee else { return [] }
    return (0..<Int(subjects.Count)).compactMap { index in
      subjects.List[index].Subject.map { String(cString: $0) }.flatMap { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : nil }
    }
  }

  /// The key's value and revision; nil when it has none.
  func read(_ key: String) throws -> (value: Data, revision: UInt64)? {
    var entry: OpaquePointer?
    let status = kvStore_Get(&entry, handle, key)
    if status == NATS_NOT_FOUND { return nil }
    try NATSConnection.check("read \(key) in \(name)", status)
    defer { kvEntry_Destroy(entry) }
    let length = Int(kvEntry_ValueLen(entry))
    return (length > 0 ? Data(bytes: kvEntry_Value(entry), count: length) : Data(), kvEntry_Revision(entry))
  }

  /// Writes `value` only if the key is still at `revision` (nil: only if
  /// it does not exist yet); the new revision, or nil when another writer
  /// got there first. Throws only when the bucket cannot be reached.
  func write(_ key: String, _ value: Data, at revision: UInt64?) throws -> UInt64? {
    var written: UInt64 = 0
    let status = value.withUnsafeBytes { bytes in
      revision.map { kvStore_Update(&written, handle, key, bytes.baseAddress, Int32(bytes.count), $0) }
        ?? kvStore_Create(&written, handle, key, bytes.baseAddress, Int32(bytes.count))
    }
    if status == NATS_OK { return written }
    // Refused: if the key moved on from what was expected, another writer
    // won; if not, the bucket could not be reached or answered.
    let detail = NATSConnection.lastError()
    if try read(key)?.revision != revision { return nil }
    throw NATSConnection.Failure(operation: "write \(key) in \(name)", status: status, code: jsErrCode(0), detail: detail)
  }
}
