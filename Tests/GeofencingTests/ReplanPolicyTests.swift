import Domain
import Foundation
import Geofencing
import Testing

@Suite struct ReplanPolicyTests {
  let policy = ReplanPolicy(config: CoverageConfig())
  let here = try! Coordinate(latitude: 60.17, longitude: 24.94)
  let far = try! Coordinate(latitude: 60.18, longitude: 24.94)  // about 1.1 km north
  let now = Date(timeIntervalSince1970: 1_000_000)

  @Test func firstFixAlwaysPlans() {
    #expect(policy.decide(fix: here, accuracy: 100, at: now, lastPlan: nil) == .replan("no plan yet"))
  }

  @Test func inaccurateFixesNeverReplan() {
    guard case .keep(let reason) = policy.decide(fix: far, accuracy: 1500, at: now, lastPlan: nil) else {
      Issue.record("an inaccurate fix replanned")
      return
    }
    #expect(reason.contains("1500 m"))
  }

  @Test func needsDistanceAndTime() {
    let last = (origin: here, at: now)
    #expect(policy.decide(fix: here, accuracy: 50, at: now.addingTimeInterval(3600), lastPlan: last) != .replan("moved 0 m"))
    guard case .keep = policy.decide(fix: far, accuracy: 50, at: now.addingTimeInterval(30), lastPlan: last) else {
      Issue.record("replanned too soon")
      return
    }
    guard case .replan = policy.decide(fix: far, accuracy: 50, at: now.addingTimeInterval(300), lastPlan: last) else {
      Issue.record("did not replan after moving far enough")
      return
    }
  }
}
