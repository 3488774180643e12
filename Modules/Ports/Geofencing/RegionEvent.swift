import Foundation

/// What the OS reports about a monitored region.
public struct RegionEvent: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable, Codable {
    case entered, exited
    /// Answers to `requestState`.
    case inside, outside
  }

  public let id: String
  public let kind: Kind
  public let at: Date

  public init(id: String, kind: Kind, at: Date) {
    self.id = id
    self.kind = kind
    self.at = at
  }
}
