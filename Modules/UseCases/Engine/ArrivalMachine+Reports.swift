import Domain
import Foundation
import Geofencing

extension ArrivalMachine {
  /// A location a device reported on its own schedule (a phone over
  /// OwnTracks, a GPS). One report is one draw of a position that may be a
  /// GPS outlier, so: a report implausibly far from the last one is
  /// ignored (it neither fires nor moves the plan); while a session runs,
  /// the session decides with its own rule (good fixes in a row inside,
  /// outliers skipped) and the places holding the report join it;
  /// otherwise a report inside a place beyond doubt fires, and one whose
  /// accuracy only fits the place (the OS's Wi-Fi or cell position may be
  /// hundreds of metres off) asks a confirming fix while a session reaches
  /// the device and the allowance can pay (`confirmVagueReports`), and
  /// fires at its word when not. It also answers entries waiting to be
  /// confirmed, and the plan follows as after a significant change.
  /// `mayFire` false (a fix delivered long after it was taken) only plans;
  /// `restoring` (the last fix before a restart, or before this worker
  /// took the person over): the visits reminded are put back as saved
  /// when they fired (`saveVisits`), and the fix is taken again as it came,
  /// since its step may not have run (a crash after the fix was journalled)
  /// and what it fired is known; a fix too old to fire only plans. Nothing
  /// saved: nothing was reminded (a store written before the visits were
  /// saved, 2026-12-03, may remind a visit under way at the upgrade again).
  /// `takenAt`: when the device measured it (the time between two
  /// measurements is what tells an outlier); nil is now.
  mutating func reportedFix(_ point: Coordinate, accuracy: Double, takenAt: Date?, mayFire: Bool, restoring: Bool) {
    if restoring {
      syncIndex()
      let saved = world.state.settings[Self.visitsKey].flatMap { try? JSONDecoder().decodeOutside(VisitTracker.Saved.self, from: Data($0.utf8)) }
      let destinations = Dictionary(indexed.values.map { (DestinationKey(task: $0.task, location: $0.location), $0) }, uniquingKeysWith: { a, _ in a })
      visits.restore(saved ?? VisitTracker.Saved()) { destinations[DestinationKey(task: $0, location: $1)] }
      reported = nil
      return reportedFix(point, accuracy: accuracy, takenAt: takenAt, mayFire: mayFire, restoring: false)
    }
    guard mayFire else { return significantChange(point, accuracy: accuracy) }
    if let ignored = implausibleReport(point, accuracy: accuracy, at: takenAt ?? now) { return report(ignored) }
    // The device says it has sat still for long (a phone that reports its
    // motion): a position too coarse to fire by itself is the OS's Wi-Fi or
    // cell position wandering, as with a crossing; it neither fires nor
    // moves the plan. A GPS-grade report still counts. With no plan yet it
    // is the best position there is: it makes the first plan (firing
    // nothing), or a person who sat still since the daemon started got no
    // regions until they left.
    if accuracy > config.session.fixMaxAccuracy, let still = stillFor() {
      if lastPlan == nil { return significantChange(point, accuracy: accuracy) }
      return report(.planKept("a report \(Int(accuracy)) m accurate after \(Int(still / 60)) min of stillness: the OS's position moved, not the person"))
    }
    syncIndex()
    visits.observe(point, accuracy: accuracy)
    // The phone's report answers the entries waiting to be confirmed (it was asked for one).
    if !confirming.isEmpty { confirmArrivals(with: point, accuracy: accuracy, gps: false) }
    let holding = index.containing(latitude: point.latitude, longitude: point.longitude).compactMap { indexed[$0] }
      .filter { point.distance(to: $0.center) <= $0.radius }
      .sorted { $0.priority < $1.priority }
    if session != nil {
      // The session's fixes confirm these too; it fires them.
      requestConfirmations(holding, reportedBy: Self.reportID)
      preciseFix(point, accuracy: accuracy)
      return significantChange(point, accuracy: accuracy)
    }
    // Otherwise a report beyond doubt fires. One whose accuracy only fits
    // the place (it may be the OS's Wi-Fi or cell guess) is confirmed first
    // while a session can reach the device and the allowance can pay for
    // one; otherwise it is all there is, taken at its word.
    let mayConfirm = config.session.confirmVagueReports && sessionsReachReporter
    // The allowance is read only when a report needs it (this runs for every fix).
    var affordable: Bool?
    var vague: [Destination] = []
    for destination in holding where accuracy <= max(config.session.fixMaxAccuracy, destination.radius) {
      let distance = point.distance(to: destination.center)
      if mayConfirm, !conclusivelyInside(destination, distance: distance, accuracy: accuracy) {
        affordable = affordable ?? (budget.available(at: now, config: config.session) >= config.session.minimumSession)
        if affordable == true {
          vague.append(destination)
          continue
        }
      }
      fire(destination, distance: distance)
    }
    if !vague.isEmpty { requestConfirmations(vague, reportedBy: Self.reportID) }
    significantChange(point, accuracy: accuracy)
  }

  /// What asked a confirming fix when a device's own report did (`confirmationRequested`'s id).
  static let reportID = "wh-report"
  /// The store setting `saveVisits` writes.
  static let visitsKey = "arrival.visits"

  struct DestinationKey: Hashable {
    let task: TaskID
    let location: LocationID
  }

  /// A report farther from the last plausible one than anyone could have
  /// moved (both accuracies given the benefit of the doubt) is an outlier:
  /// the event saying so, or nil when it is plausible. Several in a row
  /// mean the earlier report was the outlier, and the track starts over.
  mutating func implausibleReport(_ point: Coordinate, accuracy: Double, at taken: Date) -> ArrivalEvent? {
    if let last = reported {
      let seconds = max(abs(taken.timeIntervalSince(last.at)), 1)
      let gap = point.distance(to: last.point) - accuracy - last.accuracy
      if gap / seconds > config.session.maxPlausibleSpeed, last.outliers < Self.outliersBeforeRestart {
        reported?.outliers += 1
        return .planKept("a report \(Int(point.distance(to: last.point))) m from the last, \(Int(seconds)) s later: an outlier, ignored")
      }
    }
    reported = ReportTrack(point: point, accuracy: accuracy, at: taken)
    return nil
  }

  /// Implausible reports in a row after which the track starts over from the next.
  static let outliersBeforeRestart = 2
}
