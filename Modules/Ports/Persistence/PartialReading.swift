import Domain

/// A store that answers a command's reads from the entities it names,
/// without materialising its whole state (`sqlite:` answers from its
/// tables). A command that reads a few entities stays quick however many
/// places the store holds.
///
/// Contract (checked by `PartialReadingConformance` in TestSupport):
/// - `records(of:)` are, for every key asked (a place with its tags and
///   its list memberships), records that rebuild exactly what `state()`
///   holds for it at the same moment (entity or tombstone, the stamps
///   that decide merges, the tags in the same order), and none of other
///   keys; so `state(of:)` holds those keys and nothing else (its `latest`
///   is of those keys only). They reflect every acknowledged write, of
///   this process or another's; reading throws what it failed on.
/// - `taskKeys()` is the key of every task the store has a record of
///   (held or deleted).
/// - `listKeys()` is the key of every list the store has a record of
///   (held or deleted).
/// - `settingKeys(startingWith:)` is the key of every setting whose key
///   starts with the prefix that the store has a record of (held or
///   deleted), and none whose key does not.
/// - `tasks(near:)` is every task with a location (its own coordinate or
///   its place's current one) whose circle contains `point`; it may hold
///   more (callers check the distance), never fewer.
/// - `placeNames()` is every place `state()` holds (deleted ones not),
///   each once with its `name`, in no promised order: what a name typed
///   on a command line is resolved against without reading every place.
/// - `taskTitles()` is every task `state()` holds (deleted ones not), each
///   once with its `title` and whether it is completed, in no promised
///   order: what a title typed on a command line is resolved against (and
///   a new task's twins found) without reading every task.
/// - `taskListings()` is every task `state()` holds (deleted ones not),
///   each once, equal to `state().listing(of:)` at the same moment: its
///   places' names, centres and hours as they are now, however they
///   changed since the task was written; in no promised order, kept
///   encoded (`TaskListingTable`: each read in place or decoded). What
///   `task list` prints without reading every task's record and place.
/// - `placeNames(startingWith:idPrefix:)` is nil (the store cannot tell
///   without every name: callers use `placeNames()`), or every place
///   `state()` holds whose folded name (`SearchText.fold`) starts with
///   `folded` byte for byte and every one whose id starts with `idPrefix`,
///   each with its `name`; it may hold more, never fewer. A store answers
///   only for an ASCII `folded`, where bytes and characters agree; ids
///   are compared byte for byte (an id whose start only a canonically
///   equal spelling matches, an accent decomposed, is not promised).
/// - `places(inList:)` is every place `state()` holds a membership of
///   the list for; it may hold more (a place taken out of it, or deleted,
///   since the store last folded its log), never fewer: callers read
///   those places (their memberships come with them) and check.
/// - `listCounts()` is, for every list `state()` holds a membership of,
///   how many places it holds (memberships as `state()` counts them); a
///   list with none may be missing.
public protocol PartialReading: OperationStore {
  /// Records that rebuild what `state()` holds for `keys`, and nothing else.
  func records(of keys: Set<EntityKey>) throws -> [OperationRecord]

  /// Every task's key, deleted ones too.
  func taskKeys() throws -> Set<EntityKey>

  /// Every list's key, deleted ones too.
  func listKeys() throws -> Set<EntityKey>

  /// Every setting whose key starts with `prefix`, deleted ones too.
  func settingKeys(startingWith prefix: String) throws -> Set<EntityKey>

  /// A superset of the tasks one of whose location circles contains `point`.
  func tasks(near point: Coordinate) throws -> Set<TaskID>

  /// Every place held, with its name.
  func placeNames() throws -> [(id: PlaceID, name: String)]

  /// Every task held, with its title and whether it is completed.
  func taskTitles() throws -> [TaskTitle]

  /// Every task held as a listing shows it, each once.
  func taskListings() throws -> TaskListingTable

  /// The places whose folded name starts with `folded` or whose id starts
  /// with `idPrefix`, with their names; nil when only `placeNames()` can say.
  func placeNames(startingWith folded: String, idPrefix: String?) throws -> [(id: PlaceID, name: String)]?

  /// A superset of the places in `list`.
  func places(inList list: ListID) throws -> Set<PlaceID>

  /// How many places each list holds.
  func listCounts() throws -> [ListID: Int]
}

extension PartialReading {
  /// No index of folded names: callers read every name.
  public func placeNames(startingWith folded: String, idPrefix: String?) throws -> [(id: PlaceID, name: String)]? { nil }

  /// What `state()` holds for `keys`, and nothing else.
  public func state(of keys: Set<EntityKey>) throws -> StoreState {
    StoreState(applying: try records(of: keys))
  }
}

extension StoreState {
  /// The state these records make, room made for them first.
  public init(applying records: [OperationRecord]) {
    self.init()
    reserveCapacity(records.count)
    apply(contentsOf: records)
  }

  /// The places the tasks held are tied to: what a partial read of tasks
  /// reads next to show or place them.
  public var placeKeys: Set<EntityKey> {
    Set(tasks.values.flatMap { task in task.locations.compactMap { if case .place(let id) = $0.target { EntityKey.place(id) } else { nil } } })
  }

  /// Every task held, its title and whether it is done: what `taskTitles()` answers from a state read whole.
  public var taskTitles: [TaskTitle] { tasks.values.map { TaskTitle(id: $0.id, title: $0.title, completed: $0.state.isCompleted) } }

  /// Every place held and its name: what `placeNames()` answers from a state read whole.
  public var placeNames: [(id: PlaceID, name: String)] { places.values.map { ($0.id, $0.name) } }

  /// The places `list` holds: what `places(inList:)` answers from a state read whole.
  public func places(inList list: ListID) -> Set<PlaceID> { Set(memberships.lazy.filter { $0.list == list }.map(\.place)) }

  /// How many places each list holds: what `listCounts()` answers from a state read whole.
  public var listCounts: [ListID: Int] {
    var counts: [ListID: Int] = [:]
    for membership in memberships { counts[membership.list, default: 0] += 1 }
    return counts
  }

  /// Every task held or deleted: what `taskKeys()` answers from a state read whole.
  public var taskKeys: Set<EntityKey> { keys(held: tasks.keys.map(EntityKey.task)) { if case .task = $0 { true } else { false } } }

  /// Every list held or deleted: what `listKeys()` answers from a state read whole.
  public var listKeys: Set<EntityKey> { keys(held: lists.keys.map(EntityKey.list)) { if case .list = $0 { true } else { false } } }

  /// Every setting held or deleted whose key starts with `prefix`: what
  /// `settingKeys(startingWith:)` answers from a state read whole.
  public func settingKeys(startingWith prefix: String) -> Set<EntityKey> {
    keys(held: settings.keys.filter { $0.hasPrefix(prefix) }.map(EntityKey.setting)) {
      if case .setting(let name) = $0 { name.hasPrefix(prefix) } else { false }
    }
  }

  /// `held`, and every key with a stamp (deleted ones keep theirs) that `matches`.
  private func keys(held: [EntityKey], matches: (EntityKey) -> Bool) -> Set<EntityKey> {
    var keys = Set(held)
    for key in versions.keys where matches(key) { keys.insert(key) }
    return keys
  }
}

extension EntityKey {
  /// The key a record is read with: a tag or a membership goes with its
  /// place (showing a place shows its tags and lists), anything else is
  /// its own.
  public var owner: EntityKey {
    switch self {
    case .tag(let tag): return .place(tag.place)
    case .membership(let membership): return .place(membership.place)
    default: return self
    }
  }
}
