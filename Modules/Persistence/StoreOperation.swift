import Domain

/// One mutation. Every change to a store is a put of a whole entity or a
/// delete (a tombstone) of a key; merging logs is then last-writer-wins per key.
public enum StoreOperation: Hashable, Sendable {
  case put(Entity)
  case delete(EntityKey)

  public var key: EntityKey {
    switch self {
    case .put(let entity): return entity.key
    case .delete(let key): return key
    }
  }
}
