import Domain

/// The wire and disk form (documented in Docs/Formats.md):
/// `{"t":"STAMP","op":"put","task":{…}}`, an update
/// `{"t":"STAMP","op":"put","fields":["title"],"task":{…}}`, a tag
/// `{"t":"STAMP","op":"put","tag":{"place":"ID","name":"cafe"}}`,
/// `{"t":"STAMP","op":"delete","key":"task/ID"}`.
extension OperationRecord: Codable {
  private enum Keys: String, CodingKey {
    case stamp = "t", op, key, task, place, list, membership, setting, value, entry, tag, fields
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
      } else if let tag = try c.decodeIfPresent(PlaceTag.self, forKey: .tag) {
        entity = .tag(tag)
      } else if let key = try c.decodeIfPresent(String.self, forKey: .setting) {
        entity = .setting(key: key, value: try c.decode(String.self, forKey: .value))
      } else {
        throw DecodingError.dataCorruptedError(forKey: .op, in: c, debugDescription: "put without an entity")
      }
      var fields: EntityFields?
      if let names = try c.decodeIfPresent([String].self, forKey: .fields) {
        guard let parsed = EntityFields(names: names, of: entity.key), !parsed.isEmpty else {
          let allowed = EntityFields.names(of: entity.key)?.joined(separator: ", ") ?? "none"
          throw DecodingError.dataCorruptedError(
            forKey: .fields, in: c, debugDescription: "fields \(names) of \(entity.key) (allowed: \(allowed))")
        }
        fields = parsed
      }
      self.init(stamp: stamp, operation: .put(entity), fields: fields)
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
      if let fields { try c.encode(fields.names(of: entity.key), forKey: .fields) }
      switch entity {
      case .task(let task): try c.encode(task, forKey: .task)
      case .place(let place): try c.encode(place, forKey: .place)
      case .list(let list): try c.encode(list, forKey: .list)
      case .membership(let membership): try c.encode(membership, forKey: .membership)
      case .setting(let key, let value):
        try c.encode(key, forKey: .setting)
        try c.encode(value, forKey: .value)
      case .sourceEntry(let entry): try c.encode(entry, forKey: .entry)
      case .tag(let tag): try c.encode(tag, forKey: .tag)
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
    case "tag":
      let parts = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
      self = .tag(PlaceTag(place: PlaceID(parts[0]), name: parts[1]))
    case "membership":
      let ids = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      guard ids.count == 2, !ids[0].isEmpty, !ids[1].isEmpty else { return nil }
      self = .membership(Membership(list: ListID(ids[0]), place: PlaceID(ids[1])))
    default: return nil
    }
  }
}
