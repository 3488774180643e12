/// The device conditions that limit precise tracking.
public struct PowerState: Hashable, Sendable, Codable {
  public enum Thermal: String, Hashable, Sendable, Codable, CaseIterable {
    case nominal, fair, serious, critical
  }

  /// 0…1.
  public var battery: Double
  public var lowPowerMode: Bool
  public var thermal: Thermal

  public init(battery: Double = 1, lowPowerMode: Bool = false, thermal: Thermal = .nominal) {
    self.battery = battery
    self.lowPowerMode = lowPowerMode
    self.thermal = thermal
  }
}
