import Analytics
import Geofencing

extension ArrivalEvent {
  /// The usage event this engine event counts as, if any: counts and
  /// reasons only.
  public var analytics: AnalyticsEvent? {
    switch self {
    case .planned(let plan, _, _, _):
      return .planMade(regions: plan.regions.count, leftOut: plan.leftOut)
    case .reminder(let outcome):
      switch outcome {
      case .delivered: return .reminderFired(.delivered)
      case .suppressed: return .reminderFired(.suppressed)
      case .failed: return .reminderFired(.failed)
      }
    case .sessionStopped(let reason, let used):
      return .sessionEnded(Self.sessionEnd(reason), seconds: used)
    default:
      return nil
    }
  }

  static func sessionEnd(_ reason: PreciseSession.StopReason) -> SessionEnd {
    switch reason {
    case .settled: return .settled
    case .leftZone: return .leftZone
    case .noFix: return .noFix
    case .stationary: return .stationary
    case .maxDuration: return .timeLimit
    case .noProgress: return .noProgress
    case .budget: return .budget
    case .permission: return .permission
    case .criticalHeat: return .criticalHeat
    case .shutdown: return .shutdown
    }
  }
}
