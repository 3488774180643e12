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
    /// Received writes that lost to a newer write of the same field, tag or
    /// key: conflicts settled in favour of the newer write.
    public var settled = 0
    /// What those conflicts were about ("task 'Buy milk': title"), at most 20.
    public var conflicts: [String] = []
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
    try FutureStampCheck.check(incoming, now: context.clock.now())
    let changed = try store.merge(incoming)
    report.received = incoming.count
    report.applied = changed.count
    let applied = Set(changed.map(\.stamp))
    let after = store.state()
    let lost = incoming.filter { !applied.contains($0.stamp) && after.newerWrite(than: $0) != nil }
    report.settled = lost.count
    report.conflicts = lost.prefix(20).map { Self.describe($0, in: after) }
    report.warnings = pulled.warnings
    report.lastContact = pulled.lastContact
    var positions: [StoreOperation] = [.put(.setting(key: cursorKey, value: pulled.cursor))]
    if let last = outgoing.map(\.stamp).max() ?? sentStamp { positions.append(.put(.setting(key: sentKey, value: last.description))) }
    for (replica, when) in pulled.lastContact { positions.append(.put(.setting(key: "local.sync.contact.\(replica)", value: when))) }
    try store.append(positions)
    return report
  }

  /// What a record wrote, in the person's words: "task 'Buy milk': title".
  static func describe(_ record: OperationRecord, in state: StoreState) -> String {
    let key = record.operation.key
    let fields = record.fields.map { ": " + $0.names(of: key).joined(separator: ", ") } ?? ""
    func place(_ id: PlaceID) -> String { state.places[id].map { "'\($0.name)'" } ?? "a deleted place" }
    switch key {
    case .task(let id): return (state.tasks[id].map { "task '\($0.title)'" } ?? "a deleted task") + fields
    case .place(let id): return "place " + place(id) + fields
    case .list(let id): return (state.lists[id].map { "list '\($0.name)'" } ?? "a deleted list") + fields
    case .membership(let m): return place(m.place) + " in " + (state.lists[m.list].map { "list '\($0.name)'" } ?? "a deleted list")
    case .tag(let tag): return "tag '\(tag.name)' on " + place(tag.place)
    case .setting(let name): return "setting \(name)"
    case .sourceEntry(let id): return state.sourceEntries[id].map { "imported row '\($0.title)'" } ?? "an imported row"
    }
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
    try FutureStampCheck.check(records, now: context.clock.now())
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
