import Domain
import Foundation

/// A scripted world for `whilehere-sim run`: saved places, tasks, a walk,
/// and how the person answers each reminder. Docs/Formats.md documents it.
public struct Scenario: Codable, Sendable {
  public struct PlaceEntry: Codable, Sendable {
    public var name: String
    public var lat: Double
    public var lon: Double
    public var address: String?
    public var tags: [String]?
    /// The OpenStreetMap object it came from, for attribution and checking.
    public var osm: String?
    /// Its OpenStreetMap `opening_hours`, for tasks only for open hours.
    public var hours: String?
  }

  public struct TaskEntry: Codable, Sendable {
    public var title: String
    /// Saved place names or `lat,lon`, in priority order.
    public var at: [String]
    /// One radius for all, or one per entry of `at`.
    public var radius: [Double]?
    public var keywords: [String]?
    /// Remind only while the place is open (its `hours`).
    public var onlyWhileOpen: Bool?
  }

  public struct Waypoint: Codable, Sendable {
    public var lat: Double
    public var lon: Double
    /// Seconds to stay here before walking on.
    public var pause: Double?
    public var label: String?

    public init(lat: Double, lon: Double, pause: Double? = nil, label: String? = nil) {
      self.lat = lat
      self.lon = lon
      self.pause = pause
      self.label = label
    }
  }

  public struct Walk: Codable, Sendable {
    /// Metres per second (walking is 1.2–1.5).
    public var speed: Double
    public var waypoints: [Waypoint]

    public init(speed: Double, waypoints: [Waypoint]) {
      self.speed = speed
      self.waypoints = waypoints
    }
  }

  /// How the person answers a task's reminder: `done`, `later DURATION`, or `ignore`.
  public var answers: [String: String]?
  public var name: String
  public var start: Date
  public var places: [PlaceEntry]
  public var tasks: [TaskEntry]
  public var walk: Walk
  public var attribution: String?

  /// The keys each object may hold: a misspelt key is an error, not a
  /// silently ignored setting.
  static let knownKeys: [String: Set<String>] = [
    "": ["answers", "name", "start", "places", "tasks", "walk", "attribution"],
    "places[]": ["name", "lat", "lon", "address", "tags", "osm", "hours"],
    "tasks[]": ["title", "at", "radius", "keywords", "onlyWhileOpen"],
    "walk": ["speed", "waypoints"],
    "walk.waypoints[]": ["lat", "lon", "pause", "label"],
  ]

  static func checkKeys(_ value: JSONValue, at path: String, shape: String, source: String) throws {
    switch value {
    case .object(let object):
      if let known = knownKeys[shape] {
        for key in object.keys.sorted() where !known.contains(key) {
          throw ScenarioError(source: source, message: "unknown key '\(path.isEmpty ? key : path + "." + key)'; known here: \(known.sorted().joined(separator: ", "))")
        }
      }
      for (key, inner) in object where key != "answers" {
        let childShape = shape.isEmpty ? key : shape + "." + key
        try checkKeys(inner, at: path.isEmpty ? key : path + "." + key, shape: childShape, source: source)
      }
    case .array(let items):
      for (index, item) in items.enumerated() { try checkKeys(item, at: "\(path)[\(index)]", shape: shape + "[]", source: source) }
    default:
      break
    }
  }

  public static func decode(_ data: Data, source: String) throws -> Scenario {
    if let value = try? JSONParser.parse(data) { try checkKeys(value, at: "", shape: "", source: source) }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    do {
      return try decoder.decodeOutside(Scenario.self, from: data)
    } catch let DecodingError.keyNotFound(key, context) {
      throw ScenarioError(source: source, message: "missing '\(Self.path(context.codingPath + [key]))'")
    } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
      throw ScenarioError(source: source, message: "'\(Self.path(context.codingPath))': \(context.debugDescription)")
    } catch let DecodingError.dataCorrupted(context) {
      throw ScenarioError(source: source, message: "\(Self.path(context.codingPath)) \(context.debugDescription)")
    } catch {
      throw ScenarioError(source: source, message: "\(error)")
    }
  }

  static func path(_ keys: [any CodingKey]) -> String {
    keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
  }
}

/// A simulator input file that cannot be used (a scenario, a world, an
/// engine file), with which kind, where and why.
public struct ScenarioError: Error, CustomStringConvertible, Equatable {
  public let source: String
  public let message: String
  /// What the file is, as its error names it.
  public let kind: String

  public init(source: String, message: String, kind: String = "scenario") {
    self.source = source
    self.message = message
    self.kind = kind
  }

  public var description: String { "\(kind) \(source): \(message)" }
}
