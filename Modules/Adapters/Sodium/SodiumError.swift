/// A libsodium call failed or was given bad input.
public struct SodiumError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}
