import Domain
import Foundation
import Geofencing

extension ArrivalMachine {
  /// How long the device has been still, when that is longer than `stillnessVeto`.
  func stillFor() -> TimeInterval? {
    guard config.session.stillnessVeto > 0, let since = stillSince else { return nil }
    let still = now.timeIntervalSince(since)
    return still >= config.session.stillnessVeto ? still : nil
  }

  /// The motion history changed: the device became still or started
  /// moving, at `since` (the history keeps when; a suspended app reads it
  /// at its next wake, so it may be a while ago). Nil: now.
  mutating func motionChanged(still: Bool, since: Date?) {
    if still {
      // A stillness that began later than the one held means the device
      // moved in between, even if the app slept through the moving part.
      if let since {
        stillSince = min(since, now)
      } else if stillSince == nil {
        stillSince = now
      }
      // Stopping where followed positions put the person near a place is
      // the likeliest visit of all: one fix settles it.
      if following, let last = lastReducedAt, now.timeIntervalSince(last) <= Self.stopLookback, let here = lastPosition {
        let near = candidates(near: here).filter { here.distance(to: $0.center) <= $0.radius + config.follow.maxAccuracy }
        requestConfirmations(near, reportedBy: Self.stopID)
      }
    } else {
      stillSince = nil
      retakeVetoed(movingSince: min(since ?? now, now))
    }
    updateFollowing()
  }

  /// The device was moving by `movingSince`: crossings let be for
  /// stillness at or after it were the person's, not the OS's position
  /// wandering, and are taken now. A phone that reports over the network
  /// sends a crossing before the location that says how it moves (both
  /// OwnTracks apps follow a transition with a location), so the
  /// stillness the crossing was judged by may be the one it ended.
  mutating func retakeVetoed(movingSince: Date) {
    let retaken = stillVetoed.filter { $0.at >= movingSince && now.timeIntervalSince($0.at) <= Self.vetoRetakeWindow }
    stillVetoed = []
    for (event, _) in retaken where plan.region(event.id) != nil {
      report(.planKept("\(event.id): the device was moving when it crossed; the crossing is taken"))
      regionEvent(event)
    }
  }

  /// A crossing let be for stillness is taken again only this soon after, seconds.
  static let vetoRetakeWindow: TimeInterval = 120

  /// A crossing of `region` was let be because the device has been still
  /// for long: the OS's own position wanders across the places around
  /// where a person sits, and each crossing it delivers is a background
  /// wake that can change nothing until the person moves. The region is
  /// taken off the OS until the motion history says the device moved
  /// (`unmuteIfMoved`). The edge stays: it is what notices leaving.
  mutating func muteWhileStill(_ region: PlannedRegion) {
    let coverage = config.coverage
    guard coverage.muteWhileStill || coverage.muteWhileWatched, region.kind != .edge, installed.contains(region.id) else { return }
    // The first region taken off: from now on the device's moving is what brings them back.
    if muted.isEmpty, coverage.muteWhileWatched {
      // The watch's GPS updates are tracking like any other: an allowance
      // that cannot pay them keeps the region on the OS (unless regions go
      // off unwatched anyway).
      if watchCharge > 0, !budget.chargeFix(watchCharge, at: now, config: config.session) {
        guard coverage.muteWhileStill else {
          return report(.planKept("\(region.id) stays on the OS: no tracking budget left to watch for movement"))
        }
      } else {
        if watchCharge > 0 { saveBudget() }
        command(.watchForMovement)
      }
    }
    uninstall(region.id)
    muted.insert(region.id)
    mutedStillSince = stillSince
    report(.planKept("\(region.id) taken off the OS until the device moves"))
  }

  /// Puts the muted regions back once the device is no longer in the
  /// stillness they were muted in, and asks each one's state: the person
  /// may have walked into one while it was off, and the OS reports no
  /// entry for a region registered while inside it.
  mutating func unmuteIfMoved() {
    guard !muted.isEmpty, stillSince == nil || stillSince != mutedStillSince else { return }
    let back = plan.regions.filter { muted.contains($0.id) }
    muted = []
    mutedStillSince = nil
    if config.coverage.muteWhileWatched { command(.stopWatchingForMovement) }
    for region in back {
      install(region)
      effects.append(.requestState(region.id))
    }
    if !back.isEmpty { report(.planKept("the device moves: \(back.count) muted regions back on the OS")) }
  }
}
