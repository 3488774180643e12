/// A place in a list. The pair is the identity, so a place can never be in
/// the same list twice.
public struct Membership: Hashable, Codable, Sendable {
  public let list: ListID
  public let place: PlaceID

  public init(list: ListID, place: PlaceID) {
    self.list = list
    self.place = place
  }
}
