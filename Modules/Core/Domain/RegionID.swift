/// The name under which a task location is watched by a region monitor.
/// Deterministic: the same task, location, centre and radius always give the
/// same id, and a changed centre or radius gives a new one, so a phone
/// replaces a region instead of keeping a stale one. It maps back to the task
/// and location it covers.
public struct RegionID: Hashable, Codable, Sendable, CustomStringConvertible {
  public let task: TaskID
  public let location: LocationID
  public let fingerprint: String

  public init(task: TaskID, location: LocationID, center: Coordinate, radius: Double) {
    self.task = task
    self.location = location
    self.fingerprint = Self.fingerprint(center: center, radius: radius)
  }

  /// Parses `wh:TASK:LOCATION:FINGERPRINT`; nil for anything else.
  public init?(parsing text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "wh", !parts[1].isEmpty, !parts[2].isEmpty,
      parts[3].count == 8
    else { return nil }
    task = TaskID(String(parts[1]))
    location = LocationID(String(parts[2]))
    fingerprint = String(parts[3])
  }

  public var description: String { "wh:\(task):\(location):\(fingerprint)" }

  /// FNV-1a over the centre rounded to ~1 cm and the radius to 1 cm, so the
  /// same inputs give the same id on every platform and run.
  static func fingerprint(center: Coordinate, radius: Double) -> String {
    let text = "\(Int64((center.latitude * 1e7).rounded()))/\(Int64((center.longitude * 1e7).rounded()))/\(Int64((radius * 100).rounded()))"
    return FNV1a.hex(FNV1a.hash32(text.utf8))
  }
}
