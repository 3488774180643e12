import Domain
import Foundation
import Geofencing

/// One thing that happened to the arrival engine: everything it reacts to
/// is one of these, taken one at a time by `ArrivalMachine.handle`.
public enum ArrivalInput: Equatable, Sendable {
  /// The program started; `budget` is the tracking budget last saved, if any.
  case launch(budget: TrackingBudget?)
  /// The OS reported a region crossing or state.
  case region(RegionEvent)
  /// A GPS fix (a session's, or a single fix asked for).
  case preciseFix(Coordinate, accuracy: Double)
  /// A location a device reported on its own schedule (OwnTracks, gpsd).
  case reportedFix(Coordinate, accuracy: Double, takenAt: Date?, mayFire: Bool, restoring: Bool)
  /// One location report from a phone reached over the network, with the
  /// power and motion it implies (OwnTracks); it may also be the report
  /// that shows the person left the coverage edge.
  case phoneReport(PhoneReading)
  /// A reduced-accuracy (Wi-Fi or cell) fix while following.
  case reducedFix(Coordinate, accuracy: Double)
  /// A significant-change update.
  case significantChange(Coordinate, accuracy: Double)
  /// The OS's visit monitoring reported a stay (`departed` nil: under way).
  case visit(Coordinate, accuracy: Double, departed: Date?)
  /// The motion history changed, at `since` (nil: now).
  case motion(still: Bool, since: Date?)
  case power(PowerState)
  case permissions(Permissions)
  /// Tasks or places changed in the store (added, done, snoozed, moved).
  case tasksChanged
  /// Time passed.
  case tick
  /// The program is stopping cleanly.
  case shutdown
}

/// What the engine wants done, in order, by whoever drives it: the machine
/// itself touches no port, so these are applied outside its lock.
public enum ArrivalEffect: Equatable, Sendable {
  /// Nothing to do: what happened, for the timeline, logs and tests.
  case report(ArrivalEvent)
  /// Install `add` and remove `remove` on the region monitor, ask the
  /// state of every added region `origin` is inside (the OS reports no
  /// entry for a region registered while inside it), then report the plan
  /// as `.planned` with the regions that really went in.
  case applyPlan(CoveragePlan, add: [PlannedRegion], remove: [String], origin: Coordinate, reason: String)
  /// One region outside the plan (the resume region, or a plan's region
  /// put back after it was muted).
  case install(PlannedRegion)
  /// Ask the OS whether the device is inside an installed region; report `.stateRequested`.
  case requestState(String)
  case uninstall(String)
  case location(LocationCommand)
  /// Show a reminder (`.reminder` with what the scheduler did).
  case notify(Reminder)
  /// Save the tracking budget durably. Tracking asked for after it in the
  /// same step starts only if the save succeeded.
  case saveBudget(TrackingBudget)
  /// Save which visits were reminded durably, before the reminder it
  /// comes with is shown: a restart or the worker taking the person over
  /// reads it instead of guessing from the last fix (`reportedFix`,
  /// restoring). A reminder is shown even when the save failed.
  case saveVisits(VisitTracker.Saved)

  /// What the phone's location services are asked to do.
  public enum LocationCommand: Equatable, Sendable {
    case startPrecise, stopPrecise, singleFix
    /// The single fix asked for was answered by a position the device sent by itself.
    case withdrawSingleFix
    case startReduced(distanceFilter: Double), stopReduced
    case startVisits, startSignificantChanges, stopSignificantChanges
    case watchForMovement, stopWatchingForMovement
  }

  /// One reminder to show.
  public struct Reminder: Equatable, Sendable {
    public let task: ReminderTask
    public let location: LocationID
    public let placeName: String?
    public let distance: Double?
    public let at: Date
    public let visit: Int
    public let allowed: Bool
  }
}
