import Domain

/// What the server asks of a phone; sent with the answer to its next
/// report (HTTP) or on its command topic (MQTT).
public enum PhoneCommand: Equatable, Sendable {
  /// Forget every region we installed before…
  case clearRegions
  /// …and watch exactly these.
  case setRegions([PhoneRegion])
  /// Send one location now (a precise session wants a fix).
  case reportLocation
  /// Switch the app's location mode: move mode for a precise session, the
  /// person's own mode after it. Only for devices whose owner allowed it.
  case setMonitoring(PhoneMonitoring)
}

/// A region as the phone watches it. `stamp` identifies it on Android
/// (OwnTracks' `tst`/`wtst`), `id` on iOS (`rid`); `name` is what the app shows.
public struct PhoneRegion: Equatable, Sendable {
  public let id: String
  public let name: String
  public let center: Coordinate
  public let radius: Double
  public let stamp: Int

  public init(id: String, name: String, center: Coordinate, radius: Double, stamp: Int) {
    self.id = id
    self.name = name
    self.center = center
    self.radius = radius
    self.stamp = stamp
  }
}
