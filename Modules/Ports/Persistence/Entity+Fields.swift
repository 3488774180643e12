import Domain

extension Entity {
  /// The fields that differ from `old`, or nil when the two cannot be
  /// compared field by field (another kind, another id, or a value that
  /// never changes, such as the creation date), which calls for a whole put.
  /// A place's tags are left out: they travel as set elements.
  public func changedFields(from old: Entity) -> EntityFields? {
    switch (old, self) {
    case (.task(let a), .task(let b)):
      guard a.id == b.id, a.createdAt == b.createdAt else { return nil }
      return Self.fields([
        a.title != b.title, a.notes != b.notes, a.keywords != b.keywords, a.state != b.state, a.locations != b.locations,
        a.onlyWhileOpen != b.onlyWhileOpen,
      ])
    case (.place(let a), .place(let b)):
      guard a.id == b.id, a.createdAt == b.createdAt else { return nil }
      let p = a.personal, q = b.personal
      return Self.fields([p.name != q.name, p.coordinate != q.coordinate, p.address != q.address, p.note != q.note, a.provider != b.provider])
    case (.list(let a), .list(let b)):
      guard a.id == b.id, a.createdAt == b.createdAt else { return nil }
      return Self.fields([a.name != b.name])
    default:
      return nil
    }
  }

  /// This value with `fields` taken from `source` (of the same kind; other
  /// kinds leave it unchanged).
  public func copying(_ fields: EntityFields, from source: Entity) -> Entity {
    switch (self, source) {
    case (.task(var task), .task(let from)):
      if fields.contains(.bit(0)) { task.title = from.title }
      if fields.contains(.bit(1)) { task.notes = from.notes }
      if fields.contains(.bit(2)) { task.keywords = from.keywords }
      if fields.contains(.bit(3)) { task.state = from.state }
      if fields.contains(.bit(4)) { task.locations = from.locations }
      if fields.contains(.bit(5)) { task.onlyWhileOpen = from.onlyWhileOpen }
      return .task(task)
    case (.place(var place), .place(let from)):
      if fields.contains(.bit(0)) { place.personal.name = from.personal.name }
      if fields.contains(.bit(1)) { place.personal.coordinate = from.personal.coordinate }
      if fields.contains(.bit(2)) { place.personal.address = from.personal.address }
      if fields.contains(.bit(3)) { place.personal.note = from.personal.note }
      if fields.contains(.bit(4)) { place.provider = from.provider }
      return .place(place)
    case (.list(var list), .list(let from)):
      if fields.contains(.bit(0)) { list.name = from.name }
      return .list(list)
    default:
      return self
    }
  }

  private static func fields(_ changed: [Bool]) -> EntityFields {
    var fields = EntityFields()
    for (index, flag) in changed.enumerated() where flag { fields.insert(.bit(index)) }
    return fields
  }
}
