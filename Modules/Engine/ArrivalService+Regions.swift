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
        return fire(region.destinations[0], distance: nil)
      case (.arrival, .exited):
        visits.left(region.destinations[0])
        return []
      case (.approach, .entered), (.approach, .inside):
        return startSession(in: region)
      case (.approach, .exited), (.approach, .outside), (.arrival, .outside):
        return []
      case (.edge, .exited), (.edge, .outside):
        guard !awaitingWakeFix else { return [] }
        awaitingWakeFix = true
        precise.requestSingleFix()
        return [.wakeFixRequested]
      case (.edge, .entered), (.edge, .inside):
        return []
      }
    }
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
