import Domain
import Foundation
import Gateway
import Persistence
import Sync

/// `server:URL`: whilehered as a sync hub for one of its people. Push
/// merges records into the person's store there; pull reads the person's
/// records and keeps, per replica, only those newer than the last seen
/// (records merged at the hub keep their own stamps, so a stamp cursor
/// alone could miss a late replica's older writes).
public final class ServerSyncTransport: SyncTransport, Sendable {
  public let base: URL
  public var name: String { "server:\(base.absoluteString)" }
  let authorization: String
  let timeout: TimeInterval
  let client: any HTTPSending

  public init(url: URL, user: String, password: String, client: any HTTPSending, timeout: TimeInterval = 30) {
    base = url
    self.client = client
    authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    self.timeout = timeout
  }

  public func push(_ records: [OperationRecord], from replica: ReplicaID) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    _ = try RemoteOperationStore.send(client, "POST", base.appendingPathComponent("api/v1/operations"), authorization, try encoder.encode(["merge": records]), timeout)
  }

  public func pull(after cursor: String?, replica: ReplicaID) throws -> SyncPull {
    var seen = VersionVector()
    if let cursor, !cursor.isEmpty {
      guard let parsed = VersionVector(parsing: cursor) else { throw SyncError("the saved position for \(name) is unreadable; run 'whilehere sync --from-start'") }
      seen = parsed
    }
    let data = try RemoteOperationStore.send(client, "GET", base.appendingPathComponent("api/v1/operations"), authorization, nil, timeout)
    let all = try RemoteOperationStore.decode([OperationRecord].self, from: data, base)
    let fresh = all.filter { seen.isNew($0) }
    for record in fresh { seen.observe(record) }
    return SyncPull(records: fresh, cursor: seen.text, lastContact: [base.host ?? "server": ISO8601DateFormatter().string(from: Date())])
  }
}
