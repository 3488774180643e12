/// What the person allowed, and what the engine can still do with it.
public struct Permissions: Hashable, Sendable, Codable {
  public enum Location: String, Hashable, Sendable, Codable, CaseIterable {
    case always, whileUsing = "while-using", denied
  }

  public var notifications: Bool
  public var location: Location
  /// False when the person granted only approximate location.
  public var preciseLocation: Bool

  public init(notifications: Bool = true, location: Location = .always, preciseLocation: Bool = true) {
    self.notifications = notifications
    self.location = location
    self.preciseLocation = preciseLocation
  }

  /// Regions need Always and precise location (approximate disables them).
  public var canMonitorRegions: Bool { location == .always && preciseLocation }
  /// Background precise sessions need the same.
  public var canRunSessions: Bool { location == .always && preciseLocation }

  /// Plain sentences for `whilehere doctor`: what works and what does not.
  public var explanation: [String] {
    var lines: [String] = []
    switch location {
    case .always: break
    case .whileUsing:
      lines.append("location is allowed only while the app is open: no region monitoring or background sessions; reminders fire only while it is open")
    case .denied:
      lines.append("location is denied: nothing can fire")
    }
    if location != .denied && !preciseLocation {
      lines.append("only approximate location is allowed: region monitoring is off and positions are 1-20 km off, so arrivals cannot be detected; allow precise location")
    }
    if !notifications {
      lines.append("notifications are denied: arrivals are detected and logged but no reminder is shown")
    }
    if lines.isEmpty { lines.append("all permissions granted: regions, precise sessions and reminders work") }
    return lines
  }
}
