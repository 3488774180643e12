import Domain

extension StoreState {
  /// Where a task location is now: its coordinate, or its saved place's
  /// current coordinate (nil when the place is gone or has none).
  public func coordinate(of location: TaskLocation) -> Coordinate? {
    switch location.target {
    case .coordinate(let coordinate): return coordinate
    case .place(let id): return places[id]?.coordinate
    }
  }
}
