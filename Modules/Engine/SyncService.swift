import Domain
import Foundation
import Persistence
import Sync

/// Sync and backup over one store: push what this replica wrote since the
/// last push, pull what others wrote, merge by last-writer-wins per field.
/// Positions are kept in `local.` settings, which never travel.
public struct SyncService: Sendable {
  let context: EngineContext

  public init(context: EngineContext) {
    self.context = context
  }

  /// What one sync did.
  public struct Report: Encodable, Sendable, Equatable {
    public var transport: String
    public var sent = 0
    public var received = 0
    /// Received records that changed this store.
    public var applied = 0
    /// Received records older than what this store holds for their key:
    /// conflicts settled in favour of the newer write.
    public var settled = 0
    public var warnings: [String] = []
    public var lastContact: [String: String] = [:]
  }

  static func key(_ transport: String, _ part: String) -> String { "local.sync.\(transport).\(part)" }

  public func sync(with transport: any SyncTransport, fromStart: Bool = false) throws -> Report {
    let store = context.store
    let settings = store.state().settings
    var report = Report(transport: transport.name)
    let sentKey = Self.key(transport.name, "sent")
    let sentStamp = fromStart ? nil : settings[sentKey].flatMap(HLCTimestamp.init(parsing:))
    // Only this replica's own records: each replica speaks for itself.
    let outgoing = try store.operations(since: sentStamp).filter { SyncScope.travels($0) && $0.stamp.replica == store.replica }
    if !outgoing.isEmpty { try transport.push(outgoing, from: store.replica) }
    report.sent = outgoing.count
    let cursorKey = Self.key(transport.name, "cursor")
    let pulled = try transport.pull(after: fromStart ? nil : settings[cursorKey], replica: store.replica)
    let incoming = pulled.records.filter { SyncScope.travels($0) && $0.stamp.replica != store.replica }
    let changed = try store.merge(incoming)
    report.received = incoming.count
    report.applied = changed.count
    report.settled = incoming.count - Set(changed.map(\.stamp)).count
    report.warnings = pulled.warnings
    report.lastContact = pulled.lastContact
    var positions: [StoreOperation] = [.put(.setting(key: cursorKey, value: pulled.cursor))]
    if let last = outgoing.map(\.stamp).max() ?? sentStamp { positions.append(.put(.setting(key: sentKey, value: last.description))) }
    for (replica, when) in pulled.lastContact { positions.append(.put(.setting(key: "local.sync.contact.\(replica)", value: when))) }
    try store.append(positions)
    return report
  }

  /// Every record that travels, as an archive.
  public func backup() throws -> Data {
    let records = try context.store.operations(since: nil).filter(SyncScope.travels)
    return try BackupArchive.encode(records, replica: context.store.replica, created: context.clock.now())
  }

  /// What restoring an archive did.
  public struct RestoreReport: Encodable, Sendable, Equatable {
    public var records = 0
    public var applied = 0
    /// Records not newer than what the store holds: kept as they were.
    public var kept = 0
    public var fromReplica = ""
    public var created = Date(timeIntervalSince1970: 0)
  }

  /// Merges an archive; never overwrites newer data. A damaged archive
  /// changes nothing.
  public func restore(_ data: Data) throws -> RestoreReport {
    let contents = try BackupArchive.decode(data)
    let records = contents.records.filter(SyncScope.travels)
    let changed = try context.store.merge(records)
    return RestoreReport(records: records.count, applied: changed.count, kept: records.count - changed.count, fromReplica: contents.replica, created: contents.created)
  }

  /// Replica → when it was last heard from, per `local.sync.contact.` settings.
  public func lastContacts() -> [String: String] {
    var contacts: [String: String] = [:]
    for (key, value) in context.store.state().settings where key.hasPrefix("local.sync.contact.") {
      contacts[String(key.dropFirst("local.sync.contact.".count))] = value
    }
    return contacts
  }
}
