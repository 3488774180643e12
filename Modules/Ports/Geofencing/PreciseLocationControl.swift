import Foundation

/// Turns precise (GPS) location updates on and off. The fixes themselves
/// are delivered to the engine by whoever drives it.
public protocol PreciseLocationControl: AnyObject, Sendable {
  /// Starts 1 Hz precise updates (the expensive part of the battery budget).
  func startPreciseUpdates()
  /// Stops them; idempotent.
  func stopPreciseUpdates()
  /// Asks for one good fix soon (a few seconds of GPS), delivered like any
  /// precise fix, without starting continuous updates.
  func requestSingleFix()
  /// The single fixes asked for so far were answered another way (a
  /// position the device sent by itself): the request may be dropped. A
  /// phone whose request cannot be taken back ignores it; the fix, when it
  /// comes, is delivered as usual.
  func withdrawSingleFix()
  /// Starts reduced-accuracy updates (Wi-Fi and cell, GPS off): a fix each
  /// time the OS's position moved `distanceFilter` metres, delivered to the
  /// engine's `reducedFix`. Calling it again changes the filter. A phone
  /// that has no such updates ignores it; the engine then moves coverage
  /// on significant changes and region exits alone.
  func startReducedUpdates(distanceFilter: Double)
  /// Stops them; idempotent.
  func stopReducedUpdates()
  /// Starts visit monitoring (the OS reports stays and departures, late,
  /// to the engine's `visitReported`); a phone without it ignores it.
  func startVisitMonitoring()
  /// Starts significant-change monitoring (a coarse position after each
  /// move of about 500 m, and a wake at least every 15 minutes, to the
  /// engine's `significantChange`); a phone without it, or one whose
  /// person chose it (OwnTracks' own monitoring mode), ignores it.
  func startSignificantChanges()
  /// Stops it; idempotent.
  func stopSignificantChanges()
  /// Whether `startReducedUpdates` delivers anything. A phone without them
  /// (the OwnTracks apps) says false, and the engine neither follows nor
  /// waits for a position that cannot come.
  var offersReducedUpdates: Bool { get }
  /// Watches a still device for the moment it moves (iOS 17's live
  /// updates under a background activity session, with their stationary
  /// pause; Android's activity transitions): when it moves the app is
  /// woken, with a precise fix where the watch brings one (live updates'
  /// first update after the pause); the watch then ends. A phone without
  /// it ignores it.
  func watchForMovement()
  /// Ends the watch; idempotent.
  func stopWatchingForMovement()
  /// Whether `watchForMovement` delivers anything; false by default, and
  /// the engine then keeps regions on the OS while the device is still
  /// (unless told to take them off anyway, `muteWhileStill`).
  var offersMovementWatch: Bool { get }
  /// GPS seconds one movement watch costs, charged to the tracking
  /// allowance when it starts: live updates bring a GPS update when
  /// started and another when the device moves; activity transitions
  /// need none (0, the default).
  var movementWatchCharge: TimeInterval { get }
}

extension PreciseLocationControl {
  public var offersReducedUpdates: Bool { true }
  public var offersMovementWatch: Bool { false }
  public var movementWatchCharge: TimeInterval { 0 }
  public func watchForMovement() {}
  public func stopWatchingForMovement() {}
}
