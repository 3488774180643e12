import Domain

extension StoreState {
  /// A tag add or removal settles its tag unless a newer one is held or the
  /// place was put whole or deleted after it.
  mutating func applyTag(_ tag: PlaceTag, present: Bool, stamp: HLCTimestamp) -> Bool {
    if let held = versions[.place(tag.place)], held >= stamp { return false }
    if let held = tagRegisters[tag.place]?[tag.name], held.stamp >= stamp { return false }
    if tagRegisters[tag.place] == nil, let place = places[tag.place] { tagBase[tag.place] = place.personal.tags }
    tagRegisters[tag.place, default: [:]][tag.name] = TagRegister(stamp: stamp, present: present)
    if var place = places[tag.place] {
      place.personal.tags = materializedTags(of: tag.place)
      places[tag.place] = place
    }
    return true
  }

  /// The tags of a place put whole at `stamp` with `tags`, after the adds
  /// and removals newer than that put.
  mutating func settleTags(of id: PlaceID, wholePut tags: [String], stamp: HLCTimestamp) -> [String] {
    guard dropTags(of: id, through: stamp) else { return tags }
    tagBase[id] = tags
    return materializedTags(of: id)
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
    let registers = tagRegisters[id] ?? [:]
    let held = (tagBase[id] ?? places[id]?.personal.tags ?? []) + registers.filter { $0.value.present }.keys
    let spellings = Set(held.filter { SearchText.fold($0) == fold } + [name])
    return spellings.sorted()
  }

  /// Base tags with the registers applied: once each (case- and
  /// accent-insensitive), A–Z, as the place service keeps them.
  func materializedTags(of id: PlaceID) -> [String] {
    let registers = tagRegisters[id] ?? [:]
    var names = (tagBase[id] ?? []).filter { registers[$0]?.present ?? true }
    names += registers.filter { $0.value.present }.keys.filter { !names.contains($0) }
    var seen = Set<String>()
    return names.sorted { (SearchText.fold($0), $0) < (SearchText.fold($1), $1) }.filter { seen.insert(SearchText.fold($0)).inserted }
  }
}
