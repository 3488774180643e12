/// The trigger radii a person may choose. Defaults follow the design card
/// (25 m to 10 km); configuration can narrow or widen them.
public struct RadiusPolicy: Hashable, Codable, Sendable {
  public var minimum: Double
  public var maximum: Double
  public var defaultRadius: Double

  public static let standard = RadiusPolicy(minimum: 25, maximum: 10_000, defaultRadius: 150)

  public init(minimum: Double, maximum: Double, defaultRadius: Double) {
    self.minimum = minimum
    self.maximum = maximum
    self.defaultRadius = defaultRadius
  }

  public func validate(_ meters: Double) throws(DomainError) -> Double {
    guard meters.isFinite, meters >= minimum, meters <= maximum else {
      throw .radiusOutOfRange(meters, min: minimum, max: maximum)
    }
    return meters
  }
}
