/// The daemon cannot start or go on, with what to do about it.
public struct DaemonError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  public init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}
