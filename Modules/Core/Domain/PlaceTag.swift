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

  private enum Keys: String, CodingKey { case place, name }

  /// Refuses what no store writes: an empty tag, or a place id with a `/`,
  /// which would make the key `tag/PLACE/NAME` ambiguous.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Keys.self)
    let place = try c.decode(PlaceID.self, forKey: .place)
    let name = try c.decode(String.self, forKey: .name)
    guard !place.rawValue.isEmpty, !place.rawValue.contains("/") else {
      throw DecodingError.dataCorruptedError(forKey: .place, in: c, debugDescription: "a tag's place id '\(place)' is empty or has a '/'")
    }
    guard !name.isEmpty else {
      throw DecodingError.dataCorruptedError(forKey: .name, in: c, debugDescription: "a tag on \(place) has no name")
    }
    self.init(place: place, name: name)
  }
}
