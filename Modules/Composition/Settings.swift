import Engine
import Geofencing
import Notifications

/// Every configurable value after layering (profile defaults, config file,
/// `WHILEHERE_*` environment, flags), with where each one came from.
public struct Settings: Sendable, Equatable {
  public var store = ""
  public var clock = ""
  public var ids = ""
  /// The place provider (`osm-geojson` embedded, `osm-geojson:PATH`, `memory`).
  public var places = "osm-geojson"
  /// A JSON file extending the keyword → category table ("" for none).
  public var keywords = ""
  public var radiusMinimum = 25.0
  public var radiusMaximum = 10_000.0
  public var radiusDefault = 150.0
  /// The arrival engine's numbers (coverage, sessions, budget); the file's
  /// `arrival` object overrides any of them.
  public var arrival = ArrivalConfig()
  /// What the device allows (a phone reports it; set it to see how the
  /// engine degrades): the file's `permissions` object overrides it.
  public var permissions = Permissions()
  /// Button titles and the Remind Later duration: the file's `reminders` object.
  public var reminders = ReminderSettings()
  /// Key → "profile cli", "config file PATH", "environment WHILEHERE_STORE", "flag --store".
  public var sources: [String: String] = [:]

  /// The keys a config file may hold (dots are nesting), each with its
  /// environment variable. Docs/Configuration.md lists the same.
  static let keys: [(key: String, environment: String)] = [
    ("store", "WHILEHERE_STORE"),
    ("clock", "WHILEHERE_CLOCK"),
    ("ids", "WHILEHERE_IDS"),
    ("places", "WHILEHERE_PLACES"),
    ("keywords", "WHILEHERE_KEYWORDS"),
    ("radius.min", "WHILEHERE_RADIUS_MIN"),
    ("radius.max", "WHILEHERE_RADIUS_MAX"),
    ("radius.default", "WHILEHERE_RADIUS_DEFAULT"),
  ]

  mutating func set(_ key: String, _ value: String, source: String) throws {
    switch key {
    case "store": store = value
    case "clock": clock = value
    case "ids": ids = value
    case "places": places = value
    case "keywords": keywords = value
    case "radius.min": radiusMinimum = try Self.meters(value, key: key, source: source)
    case "radius.max": radiusMaximum = try Self.meters(value, key: key, source: source)
    case "radius.default": radiusDefault = try Self.meters(value, key: key, source: source)
    default:
      throw ConfigError.unknownKey(source: source, key: key, known: Self.keys.map(\.key))
    }
    sources[key] = source
  }

  static func meters(_ text: String, key: String, source: String) throws -> Double {
    guard let value = Double(text), value.isFinite, value > 0 else {
      throw ConfigError.invalidValue(source: source, key: key, value: text, allowed: "a positive number of metres")
    }
    return value
  }

  func validate() throws {
    guard radiusMinimum <= radiusDefault, radiusDefault <= radiusMaximum else {
      throw ConfigError.invalidValue(
        source: sources["radius.default"] ?? sources["radius.min"] ?? "configuration", key: "radius",
        value: "min \(radiusMinimum), default \(radiusDefault), max \(radiusMaximum)",
        allowed: "min ≤ default ≤ max")
    }
  }
}
