import Domain

extension StoreState {
  /// A whole put settles its key unless a newer whole put or delete is held;
  /// fields set by even newer updates keep their values.
  mutating func applyWhole(_ entity: Entity, stamp: HLCTimestamp) -> Bool {
    let key = entity.key
    if let held = versions[key], held >= stamp { return false }
    versions[key] = stamp
    // Most keys never had a field update or a tag record: skip the lookups
    // (and the copy of the entity) when there was none.
    let newer = fieldStamps.isEmpty ? nil : keepFields(of: key, newerThan: stamp)
    let waiting = detached.isEmpty ? nil : detached.removeValue(forKey: key)
    var tagged = false
    if !tagRegisters.isEmpty, case .place(let place) = entity { tagged = tagRegisters[place.id] != nil }
    guard newer != nil || tagged else {
      store(entity)
      return true
    }
    var value = entity
    if let newer, let source = self.entity(for: key) ?? waiting { value = value.copying(newer, from: source) }
    if tagged, case .place(let place) = value { baseTags(of: place.id, wholePut: place.personal.tags, stamp: stamp) }
    store(value)
    return true
  }

  /// An update sets each listed field it is newer for. It never brings back
  /// a deleted entity: for a key not held, its values wait (detached) in
  /// case a whole put older than them arrives later.
  mutating func applyUpdate(_ entity: Entity, fields: EntityFields, stamp: HLCTimestamp) -> Bool {
    let key = entity.key
    if let held = versions[key], held >= stamp { return false }
    var stamps = fieldStamps[key] ?? [:]
    var taken = EntityFields()
    for index in fields.indexes where stamps[index].map({ stamp > $0 }) ?? true {
      stamps[index] = stamp
      taken.insert(.bit(index))
    }
    guard !taken.isEmpty else { return false }
    fieldStamps[key] = stamps
    if let held = self.entity(for: key) {
      store(held.copying(taken, from: entity))
    } else {
      detached[key] = detached[key]?.copying(taken, from: entity) ?? entity
    }
    return true
  }

  /// A delete settles its key unless a newer whole put or delete is held.
  mutating func applyDelete(_ key: EntityKey, stamp: HLCTimestamp) -> Bool {
    if let held = versions[key], held >= stamp { return false }
    versions[key] = stamp
    let current = fieldStamps.isEmpty ? nil : entity(for: key)
    remove(key)
    if !fieldStamps.isEmpty, keepFields(of: key, newerThan: stamp) != nil {
      if let current { detached[key] = current }
    } else {
      detached[key] = nil
    }
    if !tagRegisters.isEmpty, case .place(let id) = key { _ = dropTags(of: id, through: stamp) }
    return true
  }

  /// Forgets field stamps at or before `stamp`; returns the fields still
  /// newer, or nil when none is.
  private mutating func keepFields(of key: EntityKey, newerThan stamp: HLCTimestamp) -> EntityFields? {
    guard let stamps = fieldStamps[key] else { return nil }
    let newer = stamps.filter { $0.value > stamp }
    fieldStamps[key] = newer.isEmpty ? nil : newer
    return newer.isEmpty ? nil : newer.keys.reduce(EntityFields()) { $0.union(.bit($1)) }
  }

  /// The newer write that wins over `record`, when a different write does:
  /// a conflict settled in its favour. Nil when the record would change
  /// something, or is a write already held (the same stamp arriving again).
  public func newerWrite(than record: OperationRecord) -> HLCTimestamp? {
    deciding(record).flatMap { $0 > record.stamp ? $0 : nil }
  }

  /// Whether applying `record` would change anything, without applying it.
  func wouldChange(_ record: OperationRecord) -> Bool { deciding(record) == nil }

  /// The newest held write, at or after `record`'s stamp, that leaves it
  /// nothing to change; nil when it would change something. This is the
  /// rule `apply` follows, in one place for both questions above.
  private func deciding(_ record: OperationRecord) -> HLCTimestamp? {
    let stamp = record.stamp
    func atOrAfter(_ held: HLCTimestamp?) -> HLCTimestamp? { held.flatMap { $0 >= stamp ? $0 : nil } }
    switch record.operation {
    case .put(.tag(let tag)), .delete(.tag(let tag)):
      // The place's whole put or the tag's own register, whichever is newer.
      return [versions[.place(tag.place)], tagRegisters[tag.place]?[tag.name]?.stamp].compactMap(atOrAfter).max()
    case .put(let entity):
      let key = entity.key
      if let whole = atOrAfter(versions[key]) { return whole }
      guard let fields = record.fields, EntityFields.hasFields(key) else { return nil }
      guard !fields.isEmpty else { return stamp }  // sets nothing, so changes nothing
      // An update changes nothing only when every field it sets has a write at or after it.
      let stamps = fieldStamps[key] ?? [:]
      let held = fields.indexes.map { stamps[$0].flatMap(atOrAfter) }
      return held.contains(nil) ? nil : held.compactMap { $0 }.max()
    case .delete(let key):
      return atOrAfter(versions[key])
    }
  }
}
