import Domain
import Foundation

/// The regions to monitor now, and why fewer destinations were chosen when
/// capacity ran short.
public struct CoveragePlan: Hashable, Sendable {
  public let origin: Coordinate?
  public let regions: [PlannedRegion]
  /// Destinations considered but left out (over the limit or capacity).
  public let leftOut: Int
  public let note: String?

  public init(origin: Coordinate?, regions: [PlannedRegion], leftOut: Int, note: String? = nil) {
    self.origin = origin
    self.regions = regions
    self.leftOut = leftOut
    self.note = note
  }

  public static let empty = CoveragePlan(origin: nil, regions: [], leftOut: 0)

  /// The same plan with each region changed by `transform` (same ids).
  public func mapRegions(_ transform: (PlannedRegion) -> PlannedRegion) -> CoveragePlan {
    CoveragePlan(origin: origin, regions: regions.map(transform), leftOut: leftOut, note: note)
  }

  public var destinations: [Destination] { regions.filter { $0.kind == .arrival }.flatMap(\.destinations) }

  public func region(_ id: String) -> PlannedRegion? { regions.first { $0.id == id } }

  /// The coverage edge: leaving it replans (nil when every place is covered).
  public var edge: PlannedRegion? { regions.first { $0.kind == .edge } }

  /// What to change on the OS to go from `installed` to this plan: only the
  /// difference, so unchanged regions keep their state.
  public func changes(from installed: Set<String>) -> (add: [PlannedRegion], remove: [String]) {
    let wanted = Set(regions.map(\.id))
    return (regions.filter { !installed.contains($0.id) }, installed.subtracting(wanted).sorted())
  }
}
