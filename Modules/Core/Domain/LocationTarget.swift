/// What a task location points at: a bare coordinate, or a saved place whose
/// current coordinate is used (so correcting the place moves the trigger).
public enum LocationTarget: Hashable, Codable, Sendable {
  case coordinate(Coordinate)
  case place(PlaceID)
}
