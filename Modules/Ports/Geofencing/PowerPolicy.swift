import Foundation

/// How long a precise session may run under the current power state: full
/// limits normally; shorter below the battery threshold, in Low Power Mode
/// or under serious heat; none at all under critical heat.
public struct PowerPolicy: Sendable {
  public struct Limits: Equatable, Sendable {
    public let allowed: Bool
    public let maxDuration: TimeInterval
    public let stationaryStop: TimeInterval
    public let reason: String
  }

  public let config: SessionConfig

  public init(config: SessionConfig) { self.config = config }

  public func limits(for state: PowerState) -> Limits {
    if state.thermal == .critical {
      return Limits(allowed: false, maxDuration: 0, stationaryStop: 0, reason: "critical heat")
    }
    var reasons: [String] = []
    if state.battery < config.lowBattery { reasons.append("battery \(Int((state.battery * 100).rounded())) %") }
    if state.lowPowerMode { reasons.append("Low Power Mode") }
    if state.thermal == .serious { reasons.append("serious heat") }
    if reasons.isEmpty {
      return Limits(allowed: true, maxDuration: config.maxDuration, stationaryStop: config.stationaryStop, reason: "normal")
    }
    return Limits(
      allowed: true, maxDuration: config.reducedMaxDuration, stationaryStop: config.reducedStationaryStop,
      reason: reasons.joined(separator: ", "))
  }
}
