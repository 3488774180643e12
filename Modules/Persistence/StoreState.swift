import Domain

/// The materialised state of an operation log: typed views for readers, plus
/// the stamp that last wrote each key (tombstones included). Applying a
/// record is last-writer-wins per key, so applying any set of records in any
/// order, any number of times, gives the same state.
public struct StoreState: Sendable {
  public private(set) var tasks: [TaskID: ReminderTask] = [:]
  public private(set) var places: [PlaceID: Place] = [:]
  public private(set) var lists: [ListID: PlaceList] = [:]
  public private(set) var memberships: Set<Membership> = []
  public private(set) var settings: [String: String] = [:]
  public private(set) var sourceEntries: [String: SourceEntry] = [:]
  /// The stamp that last wrote each key; a key absent from the typed views
  /// but present here is a tombstone.
  public private(set) var versions: [EntityKey: HLCTimestamp] = [:]
  /// The greatest stamp applied.
  public private(set) var latest: HLCTimestamp?
  /// Bumped by every applied change to a task or place (not to settings or
  /// lists), so readers can tell cheaply whether what fires has changed.
  public private(set) var taskPlaceRevision = 0

  public init() {}

  /// Makes room for about `count` more keys, so loading a large store does
  /// not rehash its dictionaries over and over.
  public mutating func reserveCapacity(_ count: Int) {
    versions.reserveCapacity(versions.count + count)
    places.reserveCapacity(places.count + count)
  }

  /// Applies one record; returns false when a newer (or the same) write to
  /// its key is already held, in which case nothing changes.
  @discardableResult
  public mutating func apply(_ record: OperationRecord) -> Bool {
    let key = record.operation.key
    if let held = versions[key], held >= record.stamp { return false }
    versions[key] = record.stamp
    if latest.map({ record.stamp > $0 }) ?? true { latest = record.stamp }
    switch key {
    case .task, .place: taskPlaceRevision += 1
    case .list, .membership, .setting, .sourceEntry: break
    }
    switch record.operation {
    case .put(let entity): store(entity)
    case .delete(let key): remove(key)
    }
    return true
  }

  private mutating func store(_ entity: Entity) {
    switch entity {
    case .task(let task): tasks[task.id] = task
    case .place(let place): places[place.id] = place
    case .list(let list): lists[list.id] = list
    case .membership(let membership): memberships.insert(membership)
    case .setting(let key, let value): settings[key] = value
    case .sourceEntry(let entry): sourceEntries[entry.id] = entry
    }
  }

  private mutating func remove(_ key: EntityKey) {
    switch key {
    case .task(let id): tasks[id] = nil
    case .place(let id): places[id] = nil
    case .list(let id): lists[id] = nil
    case .membership(let membership): memberships.remove(membership)
    case .setting(let name): settings[name] = nil
    case .sourceEntry(let id): sourceEntries[id] = nil
    }
  }

  /// The current value of a key, or nil for a tombstone or an unknown key.
  public func entity(for key: EntityKey) -> Entity? {
    switch key {
    case .task(let id): return tasks[id].map(Entity.task)
    case .place(let id): return places[id].map(Entity.place)
    case .list(let id): return lists[id].map(Entity.list)
    case .membership(let m): return memberships.contains(m) ? .membership(m) : nil
    case .setting(let name): return settings[name].map { .setting(key: name, value: $0) }
    case .sourceEntry(let id): return sourceEntries[id].map(Entity.sourceEntry)
    }
  }

  /// One record per key written after `since` (all keys when nil): the latest
  /// put, or the tombstone. Merged into another state this reproduces every
  /// change since that point, which is all last-writer-wins needs.
  public func records(since: HLCTimestamp?) -> [OperationRecord] {
    var result: [OperationRecord] = []
    for (key, stamp) in versions where since.map({ stamp > $0 }) ?? true {
      let operation: StoreOperation = entity(for: key).map(StoreOperation.put) ?? .delete(key)
      result.append(OperationRecord(stamp: stamp, operation: operation))
    }
    result.sort { $0.stamp < $1.stamp }
    return result
  }

  public var tombstoneCount: Int {
    versions.count - tasks.count - places.count - lists.count - memberships.count - settings.count - sourceEntries.count
  }
}
