import Domain
import Engine
import Foundation
import Geofencing

extension PersonAPI {
  /// `/api/v1/plan`: the regions the phone should be watching.
  struct PlanView: Encodable {
    struct Region: Encodable {
      let id: String
      let kind: String
      let latitude: Double
      let longitude: Double
      let radius: Double
      let tasks: [String]
    }

    let regions: [Region]
    let leftOut: Int

    init(_ plan: CoveragePlan) {
      regions = plan.regions.map { region in
        Region(
          id: region.id, kind: region.kind.rawValue, latitude: region.center.latitude, longitude: region.center.longitude,
          radius: region.radius, tasks: Array(Set(region.destinations.map(\.task.rawValue))).sorted())
      }
      leftOut = plan.leftOut
    }
  }
}
