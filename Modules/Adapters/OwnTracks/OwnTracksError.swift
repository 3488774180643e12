/// A message that is not a valid OwnTracks message, naming the field.
public struct OwnTracksError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  init(_ reason: String) { self.reason = reason }
  public var description: String { reason }
}
