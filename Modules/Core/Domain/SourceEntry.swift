import Foundation

/// One imported row (a saved-list line, a starred place), kept apart from
/// the places it resolved to: several rows can point at one place (one pin),
/// and a row with no good match is kept for the person, never dropped.
public struct SourceEntry: Hashable, Codable, Sendable {
  public enum State: Hashable, Codable, Sendable {
    case matched(PlaceID)
    /// Provider candidates for the person to choose from, best first.
    case candidates([Candidate])
    case unresolved
    case rejected
  }

  public struct Candidate: Hashable, Codable, Sendable {
    public let ref: String
    public let name: String
    public let coordinate: Coordinate
    public let category: String
    public let score: Double

    public init(ref: String, name: String, coordinate: Coordinate, category: String, score: Double) {
      self.ref = ref
      self.name = name
      self.coordinate = coordinate
      self.category = category
      self.score = score
    }
  }

  /// Derived from the source and the row's text, so importing the same
  /// file again finds the same entries, and a duplicate row is one entry.
  public let id: String
  public let list: ListID
  public let source: String
  public let line: Int
  public let title: String
  public let note: String
  public var state: State
  /// Whether a person decided (accepted, entered or rejected): re-imports keep it.
  public var decided: Bool

  public init(id: String, list: ListID, source: String, line: Int, title: String, note: String, state: State, decided: Bool = false) {
    self.id = id
    self.list = list
    self.source = source
    self.line = line
    self.title = title
    self.note = note
    self.state = state
    self.decided = decided
  }
}
