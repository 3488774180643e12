import Domain

/// One mutation: a put of an entity or a delete (a tombstone) of a key.
/// Stores turn a put of an entity they already hold into an update of the
/// fields that changed (and tag adds and removals), so merging settles each
/// field by last-writer-wins and tags as a set.
public enum StoreOperation: Hashable, Sendable {
  case put(Entity)
  case delete(EntityKey)

  public var isDelete: Bool {
    if case .delete = self { return true } else { return false }
  }

  public var key: EntityKey {
    switch self {
    case .put(let entity): return entity.key
    case .delete(let key): return key
    }
  }
}
