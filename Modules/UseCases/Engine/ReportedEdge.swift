import Foundation

/// Where a phone reached over the network is, as its reports place it,
/// relative to the plan's coverage edge: the server, not the phone's OS,
/// judges from each report whether the person left (the phone's own
/// transitions say so too, when it sends them).
struct ReportedEdge: Equatable, Sendable {
  let id: String
  var inside = false
  /// The edge was installed around the person: the next report says where
  /// they are even if nothing changed, as the OS answers a state request.
  var stateDue: Bool
}
