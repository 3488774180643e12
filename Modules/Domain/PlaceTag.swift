/// One tag on one place. Tags are kept as elements of a set, each with its
/// own stamp and tombstone, so tagging on one replica and untagging another
/// tag on a second both survive a merge.
public struct PlaceTag: Hashable, Codable, Sendable {
  public let place: PlaceID
  public let name: String

  public init(place: PlaceID, name: String) {
    self.place = place
    self.name = name
  }
}
