import Foundation

/// Every number the coverage planner and replanning use. Defaults are the
/// design card's; configuration overrides them (nothing here is a constant).
public struct CoverageConfig: Hashable, Sendable, Codable {
  /// Destinations watched at once, each with its own arrival region.
  public var maxDestinations = 13
  /// Regions the OS lets the app monitor (iOS: 20).
  public var osCapacity = 20
  /// Regions other features hold; the planner never uses them.
  public var reserved = 0
  /// Destinations whose centres are this close share one approach zone.
  public var shareApproachWithin = 600.0
  /// How far beyond a destination's radius its approach zone reaches.
  public var approachMargin = 300.0
  /// The smallest region the OS handles well; approach zones are never smaller.
  public var minimumApproachRadius = 200.0
  /// Only destinations within this distance are considered.
  public var searchRadius = 50_000.0
  /// A lower priority (later position in a task) counts as this many metres farther.
  public var priorityPenalty = 150.0
  /// Replan on a significant change only if the fix is this accurate…
  public var replanMaxAccuracy = 500.0
  /// …the person moved this far since the last plan…
  public var replanMinDistance = 400.0
  /// …and this long has passed since it.
  public var replanMinInterval: TimeInterval = 120

  /// Beyond the design card: one more region, around where the plan was
  /// made, sized to stop short of the nearest destination left out. Leaving
  /// it wakes the app for one fix and a new plan, so coverage follows the
  /// person between significant changes.
  public var edgeRegion = true
  public var minimumEdgeRadius = 100.0
  /// Also beyond the card: replan from precise fixes during a session once
  /// the person is this far from where the plan was made.
  public var replanDuringSessions = true
  public var sessionReplanDistance = 150.0
  /// Ask the OS to deliver only the crossings the engine acts on (iOS
  /// `notifyOnEntry` / `notifyOnExit`): no approach zone exits, no arrival
  /// region exits while arrivals are confirmed by a fix. Every delivery to
  /// a suspended app is a background wake. Off: every crossing is delivered.
  public var quietExits = true
  /// Take a region off the OS when its crossing is let be because the
  /// device has been still for long (`stillnessVeto`), and put it back
  /// when the motion history says the device moved. Off by default: it
  /// saves about a seventh of the battery but the app then learns later
  /// that the person left, and misses more (Docs/Benchmarks.md, tenth step).
  public var muteWhileStill = false
  /// Where the phone can watch a still device for the moment it moves
  /// (`PreciseLocationControl.offersMovementWatch`: live updates' stationary
  /// pause on iOS, activity transitions on Android), take regions off as `muteWhileStill` does and watch, so
  /// they come back when the person gets up rather than at the next wake.
  /// On by default: a tenth less battery, pass-bys caught sooner
  /// (Docs/Benchmarks.md, seventeenth step).
  public var muteWhileWatched = true

  public init() {}

  /// The design card exactly: no edge region, no replans during sessions.
  public static var designCard: CoverageConfig {
    var config = CoverageConfig()
    config.maxDestinations = 7
    config.edgeRegion = false
    config.replanDuringSessions = false
    config.quietExits = false
    config.muteWhileWatched = false
    return config
  }

  public var freeCapacity: Int { max(0, osCapacity - reserved) }
}
