import Domain
import Foundation
import Geofencing
import Notifications

extension ArrivalService {
  /// A region event from the OS. Arrival regions fire; approach zones start
  /// a precise session; ids the current plan does not know are ignored.
  public func regionEvent(_ event: RegionEvent) -> [ArrivalEvent] {
    lock.withLock {
      if let pending = resume, pending.id == event.id {
        guard event.kind == .exited || event.kind == .outside else { return [] }
        monitor.stopMonitoring(pending.id)
        resume = nil
        return startSession(in: pending.zone)
      }
      guard let region = plan.region(event.id) else {
        return [.ignoredRegion(event.id, reason: "not in the current plan")]
      }
      switch (region.kind, event.kind) {
      case (.arrival, .entered), (.arrival, .inside):
        return arrivalReported(region)
      case (.arrival, .exited):
        // A confirmed visit ends on a fix clearly outside, not on the OS's
        // word: its position wanders out and back while the person stays.
        if !config.session.confirmArrivals { visits.left(region.destinations[0]) }
        return []
      case (.approach, .entered), (.approach, .inside):
        return startSession(in: region)
      case (.approach, .exited), (.approach, .outside), (.arrival, .outside):
        return []
      case (.edge, .exited), (.edge, .outside):
        guard !awaitingWakeFix else { return [] }
        let now = context.clock.now()
        if let quiet = wakeQuietUntil, now < quiet { return [.planKept("the last wake-up fix found no move; waiting before the next")] }
        guard budget.chargeFix(config.session.wakeFixCharge, at: now, config: config.session) else {
          return [.planKept("no tracking budget left for a wake-up fix")]
        }
        do { try saveBudget() } catch { return [.degraded("could not save the tracking budget: \(error)")] }
        awaitingWakeFix = true
        precise.requestSingleFix()
        return [.wakeFixRequested]
      case (.edge, .entered), (.edge, .inside):
        return []
      }
    }
  }

  /// An arrival region reported the person inside. With
  /// `confirmArrivals` a precise session confirms it first, since the OS's
  /// position can be hundreds of metres off; a session refused for budget
  /// or power then fires nothing. (Regions and sessions need the same
  /// permission, so there is no case of regions without sessions.)
  /// Called with the lock held.
  func arrivalReported(_ region: PlannedRegion) -> [ArrivalEvent] {
    let destination = region.destinations[0]
    guard config.session.confirmArrivals else { return fire(destination, distance: nil) }
    // Already announced and not left: the OS saw its own position wander back in.
    guard !visits.isVisiting(destination.task) else { return [] }
    let zone = PlannedRegion(
      id: region.id, kind: .approach, center: region.center,
      radius: max(region.radius + planner.config.approachMargin, planner.config.minimumApproachRadius), destinations: [destination])
    return startSession(in: zone)
  }

  /// Fires a destination's task once per visit if it is still live. Called with the lock held.
  func fire(_ destination: Destination, distance: Double?) -> [ArrivalEvent] {
    let state = context.store.state()
    let now = context.clock.now()
    guard let task = state.tasks[destination.task], task.countingLocations(at: now).contains(where: { $0.id == destination.location })
    else { return [] }
    guard visits.arrive(destination, at: now) else { return [] }
    var placeName: String?
    if case .place(let id)? = task.location(destination.location)?.target { placeName = state.places[id]?.name }
    let outcome = scheduler.notify(
      task: task, location: destination.location, placeName: placeName, distance: distance, at: now,
      visit: visits.visitCount[task.id] ?? 1, notificationsAllowed: permissions.notifications)
    return [.reminder(outcome)]
  }
}
