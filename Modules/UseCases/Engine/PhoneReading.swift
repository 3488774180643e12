import Domain
import Foundation
import Geofencing

/// Everything one location report from a phone reached over the network
/// tells the engine, taken as one input (`ArrivalInput.phoneReport`): the
/// power and motion changes it implies, then the position itself. The
/// engine also judges from it whether the person left the plan's coverage
/// edge, since such a phone's OS tells the server nothing until it reports.
public struct PhoneReading: Equatable, Sendable {
  public var point: Coordinate
  /// Metres; unknown accuracy is taken as poor by whoever builds the reading.
  public var accuracy: Double
  /// When the phone measured it.
  public var takenAt: Date
  /// Delivered soon enough after it was taken to fire (false: a phone that
  /// was offline; the position plans but fires nothing).
  public var fresh: Bool
  /// The phone's power when it changed with this report.
  public var power: PowerState?
  /// The motion changes this report implies, in order (true: still). Two
  /// when a phone that stood on one network joined another: moving, then
  /// still again.
  public var motion: [Bool]
  /// A precise session can reach the phone (its owner lets the server
  /// switch it to move mode): a position too vague to fire by itself is
  /// confirmed first. Without, a report is all the engine will get.
  public var sessionsReach: Bool
  /// The last report before a restart: the plan is made from it and the
  /// places and edge it is inside are noted, but nothing fires (the
  /// reminders of that visit were shown before the restart).
  public var restoring: Bool

  public init(
    point: Coordinate, accuracy: Double, takenAt: Date, fresh: Bool = true, power: PowerState? = nil, motion: [Bool] = [],
    sessionsReach: Bool = true, restoring: Bool = false
  ) {
    self.point = point
    self.accuracy = accuracy
    self.takenAt = takenAt
    self.fresh = fresh
    self.power = power
    self.motion = motion
    self.sessionsReach = sessionsReach
    self.restoring = restoring
  }
}
