/// A message that is not a valid OwnTracks message, naming the field.
public struct OwnTracksError: Error, Equatable, Sendable, CustomStringConvertible {
  public let reason: String
  /// The message is an encrypted envelope (`_type` "encrypted"): whoever
  /// holds the person's key opens it and decodes what is inside.
  public let sealed: Bool
  init(_ reason: String, sealed: Bool = false) {
    self.reason = reason
    self.sealed = sealed
  }
  public var description: String { reason }
}
