/// A typed opaque id. Ids are strings so that replicas can mint them without
/// talking to each other; the generator is injected so tests and the
/// simulator are deterministic. The phantom `Kind` keeps a task id from being
/// passed where a place id is expected.
public struct Identifier<Kind>: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
  public let rawValue: String
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public var description: String { rawValue }
  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

public enum TaskKind {}
public enum PlaceKind {}
public enum ListKind {}
public enum LocationKind {}

public typealias TaskID = Identifier<TaskKind>
public typealias PlaceID = Identifier<PlaceKind>
public typealias ListID = Identifier<ListKind>
/// Unique within its task; stable when locations are reordered.
public typealias LocationID = Identifier<LocationKind>
