/// Which fields of a task, place or list an update record sets. Each field
/// settles on its own by last-writer-wins, so two replicas editing different
/// fields of one task concurrently both keep their edit. Bit meanings depend
/// on the entity's kind (bit 0 is a task's title, a place's or list's name).
/// A place's tags are not a field: they are elements of a set (`Entity.tag`).
public struct EntityFields: OptionSet, Hashable, Sendable {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  public static func bit(_ index: Int) -> EntityFields { EntityFields(rawValue: 1 << UInt16(index)) }

  /// The field names of each kind that has fields, in bit order; nil for
  /// kinds that are only ever written whole (memberships, settings, entries).
  public static func names(of key: EntityKey) -> [String]? {
    switch key {
    case .task: return ["title", "notes", "keywords", "state", "locations", "onlyWhileOpen"]
    case .place: return ["name", "coordinate", "address", "note", "provider"]
    case .list: return ["name"]
    case .membership, .setting, .sourceEntry, .tag: return nil
    }
  }

  /// Whether `key`'s kind is written field by field (tasks, places, lists).
  public static func hasFields(_ key: EntityKey) -> Bool {
    switch key {
    case .task, .place, .list: return true
    case .membership, .setting, .sourceEntry, .tag: return false
    }
  }

  /// Every field of `key`'s kind (empty when it has none).
  public static func all(of key: EntityKey) -> EntityFields {
    EntityFields(rawValue: UInt16((1 << (names(of: key)?.count ?? 0)) - 1))
  }

  /// The bit indexes set, lowest first.
  public var indexes: [Int] { (0..<16).filter { rawValue & (1 << UInt16($0)) != 0 } }

  /// The names of the fields set, for `key`'s kind.
  public func names(of key: EntityKey) -> [String] {
    let all = Self.names(of: key) ?? []
    return indexes.compactMap { $0 < all.count ? all[$0] : nil }
  }

  /// Parses names for `key`'s kind; nil when the kind has no fields or a
  /// name is not one of them.
  public init?(names: [String], of key: EntityKey) {
    guard let all = Self.names(of: key) else { return nil }
    var fields = EntityFields()
    for name in names {
      guard let index = all.firstIndex(of: name) else { return nil }
      fields.insert(.bit(index))
    }
    self = fields
  }
}
