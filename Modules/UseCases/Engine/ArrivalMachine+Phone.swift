import Domain
import Foundation
import Geofencing

extension ArrivalMachine {
  /// A phone's location report as one input: the power and motion it
  /// implies, the position (`reportedFix`), and, when the position shows
  /// the person crossed the coverage edge, that crossing with the position
  /// standing in for the wake-up fix it asks for (the phone already sent
  /// one). A report asked of the phone before or on the way is then
  /// answered, unless a session runs.
  mutating func phoneReport(_ reading: PhoneReading) {
    sessionsReachReporter = reading.sessionsReach
    if reading.restoring {
      take(.reportedFix(reading.point, accuracy: reading.accuracy, takenAt: reading.takenAt, mayFire: reading.fresh, restoring: true))
      _ = edgeCrossing(reading.point, accuracy: reading.accuracy, at: reading.takenAt)
      return
    }
    if let power = reading.power { take(.power(power)) }
    for still in reading.motion { take(.motion(still: still, since: nil)) }
    take(.reportedFix(reading.point, accuracy: reading.accuracy, takenAt: reading.takenAt, mayFire: reading.fresh, restoring: false))
    guard let crossing = edgeCrossing(reading.point, accuracy: reading.accuracy, at: reading.takenAt) else { return }
    take(.region(crossing))
    take(.preciseFix(reading.point, accuracy: reading.accuracy))
    if session == nil { command(.withdrawSingleFix) }
  }

  /// What this report says of the edge: a crossing, or where the person is
  /// when the edge was just installed around them; nil otherwise, or when
  /// the report is too coarse to tell (accuracy over the edge's radius).
  mutating func edgeCrossing(_ point: Coordinate, accuracy: Double, at: Date) -> RegionEvent? {
    guard var edge = reportedEdge, let region = plan.region(edge.id) else { return nil }
    let due = edge.stateDue
    edge.stateDue = false
    defer { reportedEdge = edge }
    guard accuracy <= max(region.radius, Self.smallestTellingRadius) else { return nil }
    let inside = point.distance(to: region.center) <= region.radius
    if inside != edge.inside {
      edge.inside = inside
      return RegionEvent(id: edge.id, kind: inside ? .entered : .exited, at: at)
    }
    return due ? RegionEvent(id: edge.id, kind: inside ? .inside : .outside, at: at) : nil
  }

  /// A report at least this accurate tells inside from outside of any edge, metres.
  static let smallestTellingRadius = 50.0

  /// A new plan's edge starts with the person outside it as far as the
  /// reports go, and the next report answers where they are.
  mutating func noteEdgeInstalled(add: [PlannedRegion], origin: Coordinate) {
    guard let edge = plan.edge else {
      reportedEdge = nil
      return
    }
    guard add.contains(where: { $0.id == edge.id }) else { return }
    reportedEdge = ReportedEdge(id: edge.id, stateDue: edge.center.distance(to: origin) <= edge.radius)
  }

  /// The phone itself reported crossing the edge.
  mutating func noteEdgeCrossed(_ event: RegionEvent) {
    guard reportedEdge?.id == event.id, event.kind == .entered || event.kind == .exited else { return }
    reportedEdge?.inside = event.kind == .entered
  }
}
