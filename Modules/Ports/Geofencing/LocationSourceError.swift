/// A location source could not start or read, naming it.
public struct LocationSourceError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  public init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}
