import Domain
import Foundation

/// Every number the simulated world runs on, from
/// ../shared/SIMULATOR-CALIBRATION.md. One JSON file (`--world FILE`) can
/// replace any of them; the benchmark prints the world's name and hash.
public struct WorldConfig: Codable, Hashable, Sendable {
  public struct RegionMonitoring: Codable, Hashable, Sendable {
    /// At most this many regions per app; one more fails.
    public var capacity = 20
    /// Metres past the boundary before a crossing counts (capped at half the radius for small regions).
    public var crossingMargin = 200.0
    /// Seconds the device must stay past the margin.
    public var dwell = 20.0
    /// Delivery latency after the dwell, log-normal: median and 95th percentile, seconds.
    public var latencyMedian = 30.0
    public var latencyP95 = 180.0
    /// The OS judges with a coarse position: Gaussian error, metres.
    public var positionError = 40.0
    /// How often the OS re-evaluates its coarse position, seconds.
    public var evaluationInterval = 5.0
    /// The OS treats smaller regions as this big, which is why small
    /// regions can fire up to ~100 m early.
    public var minimumEffectiveRadius = 100.0

    public init() {}
  }

  public struct SignificantChange: Codable, Hashable, Sendable {
    public var minDistance = 500.0
    public var minInterval = 300.0
    /// Accuracy reported (cell/Wi-Fi grade), and the Gaussian error behind it.
    public var accuracy = 150.0
    public var error = 100.0

    public init() {}
  }

  public struct GPS: Codable, Hashable, Sendable {
    /// Time to first fix, log-normal median and p95, seconds.
    public var firstFixMedian = 4.0
    public var firstFixP95 = 15.0
    /// Chance a session gets no usable fix within 30 s.
    public var noFixChance = 0.03
    public var accuracyMin = 5.0
    public var accuracyMax = 20.0
    /// Chance of an outlier fix, and how far it jumps (metres); outliers report good accuracy.
    public var outlierChance = 0.01
    public var outlierMin = 200.0
    public var outlierMax = 2000.0

    public init() {}
  }

  public struct Power: Codable, Hashable, Sendable {
    public var batteryWh = 11.5
    /// GPS draw while precise tracking is on, watts.
    public var gpsWatts = 0.3
    /// CPU and radio overhead on top of the GPS draw, as a factor.
    public var overhead = 1.5
    public var startBattery = 0.8

    public init() {}
  }

  public struct People: Codable, Hashable, Sendable {
    public var walking = 1.35
    public var cycling = 5.0
    public var driving = 11.0
    /// Share of trips by mode.
    public var walkingShare = 0.6
    public var cyclingShare = 0.25
    /// Visit length, seconds (uniform).
    public var visitMin = 120.0
    public var visitMax = 1200.0
    /// Stops per trip.
    public var stopsMin = 3
    public var stopsMax = 7
    /// Share of stops that are pass-bys rather than visits.
    public var passByShare = 0.3
    /// Seconds stopped at a traffic light when driving or cycling, and how often per kilometre.
    public var lightStop = 45.0
    public var lightsPerKm = 2.0

    public init() {}
  }

  public var name = "calibrated-default"
  /// Places of the person inside the street area (the rest are spread over the metro area).
  public var localPlaces = 40
  public var regionMonitoring = RegionMonitoring()
  public var significantChange = SignificantChange()
  public var gps = GPS()
  public var power = Power()
  public var people = People()
  /// Heat and Low Power Mode: chance per trip that heat turns serious for a while.
  public var seriousHeatChance = 0.05
  public var lowPowerModeChance = 0.1

  public init() {}

  public static func load(_ path: String) throws -> WorldConfig {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ScenarioError(source: path, message: "cannot read the world file")
    }
    return try merged(data, source: path)
  }

  /// The defaults with the file's values laid over them, so a world file
  /// names only what it changes; a key the world does not have is an error.
  static func merged(_ data: Data, source: String) throws -> WorldConfig {
    let defaults = try JSONSerialization.jsonObject(with: JSONEncoder().encode(WorldConfig())) as! [String: Any]
    guard let overrides = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      throw ScenarioError(source: source, message: "not a JSON object")
    }
    func merge(_ base: [String: Any], _ top: [String: Any], path: String) throws -> [String: Any] {
      var result = base
      for (key, value) in top {
        guard let existing = base[key] else {
          throw ScenarioError(source: source, message: "unknown key '\(path)\(key)'; known: \(base.keys.sorted().joined(separator: ", "))")
        }
        if let nested = existing as? [String: Any] {
          guard let inner = value as? [String: Any] else {
            throw ScenarioError(source: source, message: "'\(path)\(key)' must be an object")
          }
          result[key] = try merge(nested, inner, path: path + key + ".")
        } else {
          result[key] = value
        }
      }
      return result
    }
    let combined = try merge(defaults, overrides, path: "")
    do {
      return try JSONDecoder().decode(WorldConfig.self, from: JSONSerialization.data(withJSONObject: combined))
    } catch {
      throw ScenarioError(source: source, message: "a value has the wrong type: \(error)")
    }
  }

  /// A short hash of every number, printed with each benchmark table.
  public var hash: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = (try? encoder.encode(self)) ?? Data()
    return String(FNV1a.hex(FNV1a.hash64(data)).suffix(8))
  }
}
