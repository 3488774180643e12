import Domain

/// A whole value written by a put operation.
public enum Entity: Hashable, Sendable {
  case task(ReminderTask)
  case place(Place)
  case list(PlaceList)
  case membership(Membership)
  /// Engine-owned state that must survive relaunch (e.g. a tracking budget).
  case setting(key: String, value: String)
  case sourceEntry(SourceEntry)
  /// A tag on a place, as an element of the place's tag set.
  case tag(PlaceTag)

  public var key: EntityKey {
    switch self {
    case .task(let task): return .task(task.id)
    case .place(let place): return .place(place.id)
    case .list(let list): return .list(list.id)
    case .membership(let membership): return .membership(membership)
    case .setting(let key, _): return .setting(key)
    case .sourceEntry(let entry): return .sourceEntry(entry.id)
    case .tag(let tag): return .tag(tag)
    }
  }
}
