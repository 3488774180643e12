import Domain
import Foundation

/// When a significant-change update justifies a new plan: the fix is
/// accurate enough, the person moved far enough, and enough time passed.
/// A change to the tasks always does.
public struct ReplanPolicy: Sendable {
  public let config: CoverageConfig

  public init(config: CoverageConfig) { self.config = config }

  public enum Decision: Equatable, Sendable {
    case replan(String)
    case keep(String)
  }

  public func decide(
    fix: Coordinate, accuracy: Double, at now: Date, lastPlan: (origin: Coordinate, at: Date)?
  ) -> Decision {
    guard accuracy.isFinite, accuracy <= config.replanMaxAccuracy else {
      return .keep("fix accuracy \(Int(accuracy)) m is worse than \(Int(config.replanMaxAccuracy)) m")
    }
    guard let lastPlan else { return .replan("no plan yet") }
    let moved = lastPlan.origin.distance(to: fix)
    guard moved >= config.replanMinDistance else {
      return .keep("moved \(Int(moved)) m, less than \(Int(config.replanMinDistance)) m")
    }
    let elapsed = now.timeIntervalSince(lastPlan.at)
    guard elapsed >= config.replanMinInterval else {
      return .keep("only \(Int(elapsed)) s since the last plan")
    }
    return .replan("moved \(Int(moved)) m")
  }
}
