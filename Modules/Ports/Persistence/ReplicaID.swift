import Domain

/// Names one copy of a person's store (a laptop, a server, a phone). Stamps
/// from different replicas never tie because the replica breaks ties.
public struct ReplicaID: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
  public let rawValue: String

  /// 1 to 32 characters of `a-z 0-9 -`, so it can sit inside file names and
  /// timestamps without escaping.
  public init(_ rawValue: String) throws(DomainError) {
    let allowed = rawValue.utf8.allSatisfy { byte in
      (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2d
    }
    guard !rawValue.isEmpty, rawValue.utf8.count <= 32, allowed else {
      throw .invalidValue(field: "replica id", value: rawValue, allowed: "1-32 characters of a-z, 0-9 and -")
    }
    self.rawValue = rawValue
  }

  public static func random(_ ids: any IDGenerator = RandomIDGenerator()) -> ReplicaID {
    // Generated ids are lowercase hex, always valid.
    try! ReplicaID(ids.next())
  }

  public var description: String { rawValue }
  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    do { try self.init(text) } catch {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
