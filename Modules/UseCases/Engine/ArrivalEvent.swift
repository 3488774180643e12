import Foundation
import Geofencing
import Notifications

/// What the arrival engine did, for the timeline, logs and tests.
public enum ArrivalEvent: Equatable, Sendable {
  case planned(CoveragePlan, added: [String], removed: [String], reason: String)
  case planKept(String)
  case installFailed(String)
  case stateRequested(String)
  case ignoredRegion(String, reason: String)
  case sessionStarted(zone: String, granted: TimeInterval, limits: String)
  case sessionRefused(String)
  case sessionStopped(PreciseSession.StopReason, used: TimeInterval)
  case reminder(NotificationScheduler.Outcome)
  case degraded(String)
  /// The person left the coverage edge; one fix was asked for to replan.
  case wakeFixRequested
  /// An arrival region reported the person inside; one fix was asked for
  /// to confirm it before firing (`arrival.session.confirmArrivals`).
  case confirmationRequested(String)
  /// Reduced-accuracy updates were switched on (true) or off.
  case following(Bool)
}
