import Foundation

/// The time source every rule reads. Injected everywhere so tests and the
/// simulator move time by hand instead of sleeping.
public protocol WallClock: Sendable {
  /// The current time; successive calls never go backwards on a manual clock,
  /// and callers must tolerate a system clock that does.
  func now() -> Date
}

public struct SystemClock: WallClock {
  public init() {}
  public func now() -> Date { Date() }
}
