/// A rule of the domain was broken by a value from outside.
///
/// Every case names the offending value and what is allowed, so a front end
/// can print `description` as it is.
public enum DomainError: Error, Equatable, Sendable, CustomStringConvertible {
  case invalidCoordinate(String, reason: String)
  case radiusOutOfRange(Double, min: Double, max: Double)
  case emptyTitle
  case invalidValue(field: String, value: String, allowed: String)
  /// `nearest`: the closest name, when one is close enough to be a slip.
  case notFound(kind: String, reference: String, nearest: String? = nil)
  case ambiguous(kind: String, reference: String, candidates: [String])
  case conflict(String)
  case invalidTransition(String)

  public var description: String {
    switch self {
    case .invalidCoordinate(let value, let reason):
      return "invalid coordinate '\(value)': \(reason) (expected lat,lon with lat in -90...90 and lon in -180...180)"
    case .radiusOutOfRange(let value, let min, let max):
      return "radius \(Self.format(value)) m is out of range (allowed \(Self.format(min))...\(Self.format(max)) m)"
    case .emptyTitle:
      return "title is empty (a task needs a title)"
    case .invalidValue(let field, let value, let allowed):
      return "invalid \(field) '\(value)' (\(allowed))"
    case .notFound(let kind, let reference, let nearest):
      return "no \(kind) matches '\(reference)'" + (nearest.map { "; did you mean '\($0)'?" } ?? "")
    case .ambiguous(let kind, let reference, let candidates):
      return "'\(reference)' matches several \(kind)s: \(candidates.joined(separator: ", ")); use a longer id"
    case .conflict(let message):
      return message
    case .invalidTransition(let message):
      return message
    }
  }

  static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
