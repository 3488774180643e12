import Domain

/// The wire and disk form (documented in Docs/Formats.md):
/// `{"t":"STAMP","op":"put","task":{…}}`, `{"t":"STAMP","op":"delete","key":"task/ID"}`.
extension OperationRecord: Codable {
  private enum Keys: String, CodingKey {
    case stamp = "t", op, key, task, place, list, membership, setting, value, entry
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    let stamp = try c.decode(HLCTimestamp.self, forKey: .stamp)
    let op = try c.decode(String.self, forKey: .op)
    switch op {
    case "put":
      let entity: Entity
      if let task = try c.decodeIfPresent(ReminderTask.self, forKey: .task) {
        entity = .task(task)
      } else if let place = try c.decodeIfPresent(Place.self, forKey: .place) {
        entity = .place(place)
      } else if let list = try c.decodeIfPresent(PlaceList.self, forKey: .list) {
        entity = .list(list)
      } else if let membership = try c.decodeIfPresent(Membership.self, forKey: .membership) {
        entity = .membership(membership)
      } else if let entry = try c.decodeIfPresent(SourceEntry.self, forKey: .entry) {
        entity = .sourceEntry(entry)
      } else if let key = try c.decodeIfPresent(String.self, forKey: .setting) {
        entity = .setting(key: key, value: try c.decode(String.self, forKey: .value))
      } else {
        throw DecodingError.dataCorruptedError(forKey: .op, in: c, debugDescription: "put without an entity")
      }
      self.init(stamp: stamp, operation: .put(entity))
    case "delete":
      let text = try c.decode(String.self, forKey: .key)
      guard let key = EntityKey(parsing: text) else {
        throw DecodingError.dataCorruptedError(forKey: .key, in: c, debugDescription: "invalid key '\(text)'")
      }
      self.init(stamp: stamp, operation: .delete(key))
    default:
      throw DecodingError.dataCorruptedError(forKey: .op, in: c, debugDescription: "unknown op '\(op)'")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(stamp, forKey: .stamp)
    switch operation {
    case .put(let entity):
      try c.encode("put", forKey: .op)
      switch entity {
      case .task(let task): try c.encode(task, forKey: .task)
      case .place(let place): try c.encode(place, forKey: .place)
      case .list(let list): try c.encode(list, forKey: .list)
      case .membership(let membership): try c.encode(membership, forKey: .membership)
      case .setting(let key, let value):
        try c.encode(key, forKey: .setting)
        try c.encode(value, forKey: .value)
      case .sourceEntry(let entry): try c.encode(entry, forKey: .entry)
      }
    case .delete(let key):
      try c.encode("delete", forKey: .op)
      try c.encode(key.description, forKey: .key)
    }
  }
}

extension EntityKey {
  /// Inverse of `description`.
  public init?(parsing text: String) {
    guard let slash = text.firstIndex(of: "/") else { return nil }
    let rest = String(text[text.index(after: slash)...])
    guard !rest.isEmpty else { return nil }
    switch text[..<slash] {
    case "task": self = .task(TaskID(rest))
    case "place": self = .place(PlaceID(rest))
    case "list": self = .list(ListID(rest))
    case "setting": self = .setting(rest)
    case "entry": self = .sourceEntry(rest)
    case "membership":
      let ids = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      guard ids.count == 2, !ids[0].isEmpty, !ids[1].isEmpty else { return nil }
      self = .membership(Membership(list: ListID(ids[0]), place: PlaceID(ids[1])))
    default: return nil
    }
  }
}
