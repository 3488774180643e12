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
}
