import Domain
import Foundation

/// What a phone app (OwnTracks) tells the server, independent of the wire format.
public enum PhoneReport: Equatable, Sendable {
  case location(PhoneFix)
  case transition(PhoneTransition)
  /// The phone listed the regions it watches (its own and ours).
  case waypoints(count: Int)
  /// The broker or app says the device went offline.
  case lastWill(Date)
  /// A message type that carries nothing for reminders (card, status, …).
  case ignored(type: String)
}

/// A location the phone measured and reported on its own schedule.
public struct PhoneFix: Equatable, Sendable {
  public let coordinate: Coordinate
  /// Metres; nil when the phone did not say.
  public let accuracy: Double?
  public let at: Date
  /// Battery percent and whether it is charging, when reported.
  public let battery: Int?
  public let charging: Bool?
  /// Why it was sent (`p` ping, `c` region, `u` manual, `r` asked for…).
  public let trigger: String?
  /// The app's location mode when it sent this (OwnTracks `m`), when reported.
  public let monitoring: Int?
  /// What the phone's motion coprocessor said when this was sent: true
  /// stationary, false moving (walking, running, cycling, driving), nil
  /// when the app did not say (OwnTracks iOS `motionactivities`).
  public let stationary: Bool?
  /// The network it was on, nil when the app did not say.
  public let network: PhoneNetwork?

  public init(
    coordinate: Coordinate, accuracy: Double?, at: Date, battery: Int? = nil, charging: Bool? = nil, trigger: String? = nil, monitoring: Int? = nil,
    stationary: Bool? = nil, network: PhoneNetwork? = nil
  ) {
    self.coordinate = coordinate
    self.accuracy = accuracy
    self.at = at
    self.battery = battery
    self.charging = charging
    self.trigger = trigger
    self.monitoring = monitoring
    self.stationary = stationary
    self.network = network
  }
}

/// The phone entered or left one of the regions it watches. Apps differ in
/// how they name it: iOS sends the id we gave (`rid`), Android the stamp
/// (`wtst`); both send the description.
public struct PhoneTransition: Equatable, Sendable {
  public let entered: Bool
  public let regionID: String?
  public let stamp: Int?
  public let name: String?
  public let fix: PhoneFix?
  public let at: Date

  public init(entered: Bool, regionID: String?, stamp: Int?, name: String?, fix: PhoneFix?, at: Date) {
    self.entered = entered
    self.regionID = regionID
    self.stamp = stamp
    self.name = name
    self.fix = fix
    self.at = at
  }
}
