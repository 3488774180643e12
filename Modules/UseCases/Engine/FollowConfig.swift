import Foundation

/// When the engine follows the person with reduced-accuracy updates
/// (Wi-Fi and cell positions, GPS off) and what it does with them; and
/// whether it listens to the OS's visit monitoring.
public struct FollowConfig: Hashable, Sendable, Codable {
  /// Follow at all. Off: coverage moves only on significant changes, edge
  /// exits and session fixes (the engine before reduced updates).
  public var enabled = true
  /// Follow while the plan's coverage edge is this small or smaller, metres:
  /// destinations are so dense that leaving the plan takes a short walk
  /// and the edge's exit (200 m past it, after the OS's delay) comes late.
  public var edgeRadius = 300.0
  /// The distance filter asked of the OS, metres.
  public var distanceFilter = 50.0
  /// A followed position this far from where the plan was made replans, metres…
  public var replanDistance = 150.0
  /// …if it is at least this accurate (Wi-Fi grade; cell positions are ignored).
  public var maxAccuracy = 100.0
  /// While following through a stretch of cell-grade positions (which the
  /// plan ignores), a plan this old, seconds, with the person moving and no
  /// Wi-Fi-grade position for as long, asks one wake-up fix (charged to the
  /// allowance, backed off like the edge's) when the next cell-grade
  /// position is delivered: among dense places the edge is a short walk
  /// and its exit, judged by the same cell positions, says little. 0: off.
  public var cellWakeAfter: TimeInterval = 0
  /// An approach zone's entry starts a precise session even while
  /// followed positions are current. Off: the followed positions are left
  /// to confirm the zone's places, for no GPS.
  public var sessionOnApproach = false
  /// After an approach zone's entry while following, the distance filter
  /// is `approachFilter` for this long, seconds, so the followed positions
  /// come as often as the OS refreshes them while places are near (a
  /// pass-by of a small place lasts less than the usual filter's spacing).
  /// 0: off.
  public var approachWindow: TimeInterval = 0
  public var approachFilter = 0.0
  /// While following, no position for this long, seconds, means the
  /// person slowed or stopped (a walker passes the distance filter every
  /// ~36 s): where the last one put them near a live place, one fix
  /// confirms it, once per silence. Sooner than the motion history, and
  /// for a person browsing a shop, whom it may never call still. 0: off.
  public var silenceAfter: TimeInterval = 0
  /// Listen to visit monitoring (CLVisit): a stay the OS reports under way
  /// near a destination asks one fix to confirm it, so a visit the regions
  /// missed still fires while the person is there.
  public var visits = true
  /// Listen to significant changes as well. Off (while `visits` is on):
  /// coverage moves on the edge region's exit, followed positions and
  /// visits, and every significant change is a background wake (at least
  /// one per 15 minutes, moving or not); Apple's support says the service
  /// costs more power than region or visit monitoring. With `visits` off
  /// the engine always listens: nothing else would notice a missed exit.
  /// Either way it listens until its first plan, for the first position.
  public var significantChanges = false

  /// Whether the engine listens to significant changes once it has a plan.
  public var wantsSignificantChanges: Bool { significantChanges || !visits }

  public init() {}
}
