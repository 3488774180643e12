/// A validated WGS84 position: finite, latitude within ±90, longitude within ±180.
public struct Coordinate: Hashable, Codable, Sendable, CustomStringConvertible {
  public let latitude: Double
  public let longitude: Double

  public init(latitude: Double, longitude: Double) throws(DomainError) {
    // The text only when it is wrong: formatting two doubles for every
    // valid coordinate was a tenth of opening a store.
    guard latitude.isFinite, longitude.isFinite else {
      throw .invalidCoordinate("\(latitude),\(longitude)", reason: "not a finite number")
    }
    guard (-90.0...90.0).contains(latitude) else {
      throw .invalidCoordinate("\(latitude),\(longitude)", reason: "latitude \(latitude) is outside -90...90")
    }
    guard (-180.0...180.0).contains(longitude) else {
      throw .invalidCoordinate("\(latitude),\(longitude)", reason: "longitude \(longitude) is outside -180...180")
    }
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Parses `lat,lon` as people type it (spaces allowed around the comma).
  public init(parsing text: String) throws(DomainError) {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      throw .invalidCoordinate(text, reason: "expected two numbers separated by a comma")
    }
    let trimmed = parts.map { $0.trimmingCharacters(in: .whitespaces) }
    guard let lat = Double(trimmed[0]), let lon = Double(trimmed[1]) else {
      let bad = Double(trimmed[0]) == nil ? trimmed[0] : trimmed[1]
      throw .invalidCoordinate(text, reason: "'\(bad)' is not a number")
    }
    guard lat.isFinite, lon.isFinite else {
      throw .invalidCoordinate(text, reason: "'\(lat.isFinite ? trimmed[1] : trimmed[0])' is not a finite number")
    }
    do {
      try self.init(latitude: lat, longitude: lon)
    } catch .invalidCoordinate(_, let reason) {
      throw .invalidCoordinate(text, reason: reason)
    }
  }

  /// Meant as a coordinate (and an error if invalid): text made only of
  /// digits, signs, dots, commas and spaces, or two comma-separated parts
  /// one of which is a number (`60.1,abc`, `NaN,0`, `1e400,0`). Anything
  /// else ("Stockmann, Helsinki", "7-Eleven") is a name.
  public static func looksLikeCoordinate(_ text: String) -> Bool {
    guard !text.isEmpty else { return false }
    if text.allSatisfy({ "0123456789+-., ".contains($0) }) { return true }
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    return parts.count == 2 && parts.contains { Double($0) != nil }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let lat = try container.decode(Double.self, forKey: .latitude)
    let lon = try container.decode(Double.self, forKey: .longitude)
    do {
      try self.init(latitude: lat, longitude: lon)
    } catch {
      throw DecodingError.dataCorruptedError(
        forKey: .latitude, in: container, debugDescription: error.description)
    }
  }

  private enum CodingKeys: String, CodingKey {
    case latitude = "lat"
    case longitude = "lon"
  }

  public var description: String {
    "\(Self.sixDecimals(latitude)),\(Self.sixDecimals(longitude))"
  }

  static func sixDecimals(_ value: Double) -> String {
    let scaled = (value * 1_000_000).rounded() / 1_000_000
    return String(scaled)
  }
}
