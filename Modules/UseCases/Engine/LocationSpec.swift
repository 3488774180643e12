import Domain

/// A location as a person gives it when adding it to a task: a coordinate or
/// a saved place (by id or name), with an optional radius (the configured
/// default otherwise).
public struct LocationSpec: Sendable, Equatable {
  public enum Target: Sendable, Equatable {
    case coordinate(Coordinate)
    case place(String)

    /// `lat,lon`, or a saved place's name or id.
    public init(parsing text: String) throws(DomainError) {
      self = Coordinate.looksLikeCoordinate(text) ? .coordinate(try Coordinate(parsing: text)) : .place(text)
    }
  }

  public var target: Target
  public var radius: Double?

  public init(target: Target, radius: Double? = nil) {
    self.target = target
    self.radius = radius
  }
}
