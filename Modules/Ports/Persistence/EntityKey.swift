import Domain

/// The identity a last-writer-wins register is kept under. A tombstone keeps
/// its key's stamp so an older put can never bring the entity back.
public enum EntityKey: Hashable, Sendable, CustomStringConvertible {
  case task(TaskID)
  case place(PlaceID)
  case list(ListID)
  case membership(Membership)
  case setting(String)
  case sourceEntry(String)
  case tag(PlaceTag)

  public var description: String {
    switch self {
    case .task(let id): return "task/\(id)"
    case .place(let id): return "place/\(id)"
    case .list(let id): return "list/\(id)"
    case .membership(let m): return "membership/\(m.list)/\(m.place)"
    case .setting(let key): return "setting/\(key)"
    case .sourceEntry(let id): return "entry/\(id)"
    case .tag(let tag): return "tag/\(tag.place)/\(tag.name)"
    }
  }
}
