import Domain

extension StoreState {
  /// A tag add or removal settles its tag unless a newer one is held or the
  /// place was put whole or deleted after it.
  mutating func applyTag(_ tag: PlaceTag, present: Bool, stamp: HLCTimestamp) -> Bool {
    if let held = versions[.place(tag.place)], held >= stamp { return false }
    if let held = tagRegisters[tag.place]?[tag.name], held.stamp >= stamp { return false }
    if tagRegisters[tag.place] == nil, let place = places[tag.place] { tagBase[tag.place] = place.personal.tags.map(FoldedTag.init) }
    // A name seen before keeps its fold; only a new one is folded.
    let fold = tagRegisters[tag.place]?[tag.name]?.fold ?? SearchText.fold(tag.name)
    tagRegisters[tag.place, default: [:]][tag.name] = TagRegister(stamp: stamp, present: present, fold: fold)
    if places[tag.place] != nil { unsettledTags.insert(tag.place) }
    return true
  }

  /// Puts the tags of every place changed since the last call in order.
  mutating func settleTags() {
    guard !unsettledTags.isEmpty else { return }
    for id in unsettledTags {
      guard var place = places[id] else { continue }
      place.personal.tags = materializedTags(of: id)
      places[id] = place
    }
    unsettledTags = []
  }

  /// A place put whole at `stamp` with `tags`: the adds and removals newer
  /// than that put still apply to them (in `settleTags`).
  mutating func baseTags(of id: PlaceID, wholePut tags: [String], stamp: HLCTimestamp) {
    guard dropTags(of: id, through: stamp) else { return }
    tagBase[id] = tags.map(FoldedTag.init)
    unsettledTags.insert(id)
  }

  /// Forgets the registers of a place at or before `stamp` (a whole put or
  /// delete overrides them); returns whether any is left.
  mutating func dropTags(of id: PlaceID, through stamp: HLCTimestamp) -> Bool {
    guard let registers = tagRegisters[id] else { return false }
    tagBase[id] = nil
    let newer = registers.filter { $0.value.stamp > stamp }
    tagRegisters[id] = newer.isEmpty ? nil : newer
    return !newer.isEmpty
  }

  /// Every spelling of `name` (by case- and accent-insensitive fold) the
  /// place's tags are held under: the base and every register present.
  func tagSpellings(_ id: PlaceID, _ name: String) -> [String] {
    let fold = SearchText.fold(name)
    var spellings: Set<String> = [name]
    if let registers = tagRegisters[id] {
      for (other, register) in registers where register.present && register.fold == fold { spellings.insert(other) }
      for tag in tagBase[id] ?? [] where tag.fold == fold { spellings.insert(tag.name) }
    } else {
      for other in places[id]?.personal.tags ?? [] where SearchText.fold(other) == fold { spellings.insert(other) }
    }
    return spellings.sorted()
  }

  /// Base tags with the registers applied: once each (case- and
  /// accent-insensitive), A–Z, as the place service keeps them.
  func materializedTags(of id: PlaceID) -> [String] {
    let registers = tagRegisters[id] ?? [:]
    var folds: [String: String] = [:]
    for tag in tagBase[id] ?? [] where registers[tag.name]?.present ?? true { folds[tag.name] = tag.fold }
    for (name, register) in registers where register.present { folds[name] = register.fold }
    var seen = Set<String>()
    return folds.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.filter { seen.insert($0.value).inserted }.map(\.key)
  }
}
