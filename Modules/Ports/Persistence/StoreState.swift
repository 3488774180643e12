import Domain

/// The materialised state of an operation log: typed views for readers, plus
/// the stamps that decide merges. A whole put or a delete settles a key; an
/// update settles each field it sets; a place's tags settle one by one as a
/// set with tombstones. Each is last-writer-wins by stamp, so applying any
/// set of records in any order, any number of times, gives the same state.
public struct StoreState: Sendable {
  public internal(set) var tasks: [TaskID: ReminderTask] = [:]
  public internal(set) var places: [PlaceID: Place] = [:]
  public internal(set) var lists: [ListID: PlaceList] = [:]
  public internal(set) var memberships: Set<Membership> = []
  public internal(set) var settings: [String: String] = [:]
  public internal(set) var sourceEntries: [String: SourceEntry] = [:]
  /// The stamp of the latest whole put or delete of each key (tags aside); a
  /// key absent from the typed views but present here is a tombstone.
  public internal(set) var versions: [EntityKey: HLCTimestamp] = [:]
  /// The greatest stamp applied.
  public internal(set) var latest: HLCTimestamp?
  /// Bumped by every applied change to a task or place (not to settings or
  /// lists), so readers can tell cheaply whether what fires has changed.
  public internal(set) var taskPlaceRevision = 0

  /// Fields set by updates newer than their key's whole put or delete, by
  /// bit index. Sparse: most keys were last written whole.
  var fieldStamps: [EntityKey: [Int: HLCTimestamp]] = [:]
  /// The values of those fields for keys not held (an update that arrived
  /// before its entity, or after a delete it does not undo).
  var detached: [EntityKey: Entity] = [:]
  /// Tag adds and removals newer than their place's whole put or delete.
  var tagRegisters: [PlaceID: [String: TagRegister]] = [:]
  /// Places whose tags changed and are not in order yet (within one batch).
  var unsettledTags: Set<PlaceID> = []
  /// The tags of a held place's latest whole put, kept while registers
  /// change them.
  var tagBase: [PlaceID: [FoldedTag]] = [:]

  struct TagRegister: Hashable, Sendable {
    let stamp: HLCTimestamp
    let present: Bool
    /// The tag's case- and accent-insensitive form, folded once: tags are
    /// ordered and matched by it, and folding is what costs.
    let fold: String
  }

  struct FoldedTag: Hashable, Sendable {
    let name: String
    let fold: String

    init(_ name: String) {
      self.name = name
      fold = SearchText.fold(name)
    }
  }

  public init() {}

  /// Makes room for about `count` more keys, so loading a large store does
  /// not rehash its dictionaries over and over.
  public mutating func reserveCapacity(_ count: Int) {
    versions.reserveCapacity(versions.count + count)
    places.reserveCapacity(places.count + count)
  }

  /// Applies one record; returns false when it changes nothing (what it sets
  /// is already held at the same or a newer stamp).
  @discardableResult
  public mutating func apply(_ record: OperationRecord) -> Bool {
    let changed = applyDeferringTags(record)
    settleTags()
    return changed
  }

  /// Applies records in order, putting each changed place's tags in order
  /// once at the end: a log with many tag records for one place loads in
  /// linear time, not quadratic.
  public mutating func apply(contentsOf records: some Sequence<OperationRecord>) {
    for record in records { applyDeferringTags(record) }
    settleTags()
  }

  @discardableResult
  mutating func applyDeferringTags(_ record: OperationRecord) -> Bool {
    let changed: Bool
    switch record.operation {
    case .put(.tag(let tag)): changed = applyTag(tag, present: true, stamp: record.stamp)
    case .delete(.tag(let tag)): changed = applyTag(tag, present: false, stamp: record.stamp)
    case .put(let entity):
      if let fields = record.fields, EntityFields.hasFields(entity.key) {
        changed = applyUpdate(entity, fields: fields, stamp: record.stamp)
      } else {
        changed = applyWhole(entity, stamp: record.stamp)
      }
    case .delete(let key): changed = applyDelete(key, stamp: record.stamp)
    }
    guard changed else { return false }
    if latest.map({ record.stamp > $0 }) ?? true { latest = record.stamp }
    switch record.operation {
    case .put(.task), .put(.place), .put(.tag), .delete(.task), .delete(.place), .delete(.tag): taskPlaceRevision += 1
    default: break
    }
    return true
  }

  mutating func store(_ entity: Entity) {
    switch entity {
    case .task(let task): tasks[task.id] = task
    case .place(let place): places[place.id] = place
    case .list(let list): lists[list.id] = list
    case .membership(let membership): memberships.insert(membership)
    case .setting(let key, let value): settings[key] = value
    case .sourceEntry(let entry): sourceEntries[entry.id] = entry
    case .tag: break
    }
  }

  mutating func remove(_ key: EntityKey) {
    switch key {
    case .task(let id): tasks[id] = nil
    case .place(let id): places[id] = nil
    case .list(let id): lists[id] = nil
    case .membership(let membership): memberships.remove(membership)
    case .setting(let name): settings[name] = nil
    case .sourceEntry(let id): sourceEntries[id] = nil
    case .tag: break
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
    case .tag(let tag): return tagRegisters[tag.place]?[tag.name]?.present == true ? .tag(tag) : nil
    }
  }

  public var tombstoneCount: Int {
    let keys = versions.count - tasks.count - places.count - lists.count - memberships.count - settings.count - sourceEntries.count
    return keys + tagRegisters.values.reduce(0) { $0 + $1.values.count { !$0.present } }
  }
}

extension StoreState: Equatable {
  /// Same values and same stamps; how many changes it took to get there
  /// (`taskPlaceRevision`) does not count.
  public static func == (a: StoreState, b: StoreState) -> Bool {
    guard a.tasks == b.tasks, a.places == b.places, a.lists == b.lists, a.memberships == b.memberships,
      a.settings == b.settings, a.sourceEntries == b.sourceEntries, a.versions == b.versions, a.latest == b.latest,
      a.fieldStamps == b.fieldStamps, a.tagRegisters == b.tagRegisters, a.tagBase == b.tagBase,
      a.detached.keys == b.detached.keys
    else { return false }
    // A detached value's unset fields are only context; compare the set ones.
    return a.detached.allSatisfy { key, value in
      let set = (a.fieldStamps[key] ?? [:]).keys.reduce(EntityFields()) { $0.union(.bit($1)) }
      return b.detached[key].flatMap { value.changedFields(from: $0) }.map { $0.intersection(set).isEmpty } ?? false
    }
  }
}
