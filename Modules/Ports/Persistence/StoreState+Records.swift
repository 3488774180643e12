import Domain

extension StoreState {
  /// The records that rebuild every stamp written after `since` (all when
  /// nil), in stamp order: per key its latest whole put or tombstone, each
  /// newer field update, and each tag add or removal. Merged into another
  /// state this reproduces every change since that point, which is all
  /// last-writer-wins needs, so it still works after a log is compacted.
  public func records(since: HLCTimestamp?) -> [OperationRecord] {
    records(since: since) { _ in true }
  }

  /// The records that rebuild what is held for these owners
  /// (`EntityKey.owner`: a place with its tags and memberships), and
  /// nothing else: what a part read of an open store answers.
  public func records(of owners: Set<EntityKey>) -> [OperationRecord] {
    records(since: nil) { owners.contains($0.owner) }
  }

  private func records(since: HLCTimestamp?, of keys: (EntityKey) -> Bool) -> [OperationRecord] {
    func wanted(_ stamp: HLCTimestamp) -> Bool { since.map { stamp > $0 } ?? true }
    var result: [OperationRecord] = []
    for (key, stamp) in versions where keys(key) && wanted(stamp) {
      guard var entity = entity(for: key) else {
        result.append(OperationRecord(stamp: stamp, operation: .delete(key)))
        continue
      }
      if case .place(var place) = entity, let base = tagBase[place.id] {
        // The put carries the tags it set; the newer changes follow as their own records.
        place.personal.tags = base.map(\.name)
        entity = .place(place)
      }
      result.append(OperationRecord(stamp: stamp, operation: .put(entity)))
    }
    for (key, stamps) in fieldStamps where keys(key) {
      guard let body = entity(for: key) ?? detached[key] else { continue }
      var byStamp: [HLCTimestamp: EntityFields] = [:]
      for (index, stamp) in stamps where wanted(stamp) { byStamp[stamp, default: []].insert(.bit(index)) }
      for (stamp, fields) in byStamp { result.append(OperationRecord(stamp: stamp, operation: .put(body), fields: fields)) }
    }
    for (place, registers) in tagRegisters where keys(.place(place)) {
      for (name, register) in registers where wanted(register.stamp) {
        let tag = PlaceTag(place: place, name: name)
        result.append(OperationRecord(stamp: register.stamp, operation: register.present ? .put(.tag(tag)) : .delete(.tag(tag))))
      }
    }
    result.sort { $0.stamp < $1.stamp }
    return result
  }
}
