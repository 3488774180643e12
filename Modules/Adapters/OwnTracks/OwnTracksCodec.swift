import Domain
import Foundation
import Geofencing

/// OwnTracks JSON (the booklet, checked against the iOS and Android apps):
/// one message in, commands out. Unknown fields are ignored as the booklet
/// asks; a known field of the wrong type or out of range is an error.
public enum OwnTracksCodec {
  /// Larger messages are not something a phone sends.
  public static let maxMessageBytes = 64 * 1024

  /// Reads one message. `now` bounds timestamps (a day of clock skew).
  public static func decode(_ data: Data, now: Date) throws -> PhoneReport {
    guard data.count <= maxMessageBytes else { throw OwnTracksError("the message is larger than \(maxMessageBytes) bytes") }
    let value: JSONValue
    do {
      value = try JSONParser.parse(data)
    } catch {
      throw OwnTracksError("the body is not JSON: \(error)")
    }
    guard case .object(let object) = value else { throw OwnTracksError("a message must be a JSON object, not \(value.typeName)") }
    guard case .string(let type)? = object["_type"] else { throw OwnTracksError("the message has no _type string") }
    let fields = OwnTracksFields(type: type, object: object)
    switch type {
    case "location":
      return .location(try fix(fields, now: now))
    case "transition":
      let event = try fields.string("event")
      guard event == "enter" || event == "leave" else {
        throw OwnTracksError("transition.event must be \"enter\" or \"leave\", not \(event.map { "\"\($0)\"" } ?? "missing")")
      }
      let at = try fields.time("tst", now: now)!
      let stamp = try fields.number("wtst", in: 0...4_000_000_000).map { Int($0) }
      let fix = try fields.coordinate(required: false).map { coordinate in
        PhoneFix(coordinate: coordinate, accuracy: try fields.number("acc", in: 0...1_000_000), at: at)
      }
      return .transition(
        PhoneTransition(
          entered: event == "enter", regionID: try fields.string("rid"), stamp: stamp, name: try fields.string("desc"), fix: fix, at: at))
    case "waypoints":
      guard case .array(let list)? = object["waypoints"] else { throw OwnTracksError("waypoints.waypoints must be an array") }
      for (index, entry) in list.enumerated() {
        guard case .object(let waypoint) = entry else { throw OwnTracksError("waypoints.waypoints[\(index)] must be an object") }
        do {
          try checkWaypoint(OwnTracksFields(type: "waypoint", object: waypoint), now: now)
        } catch {
          throw OwnTracksError("waypoints.waypoints[\(index)]: \(error)")
        }
      }
      return .waypoints(count: list.count)
    case "waypoint":
      try checkWaypoint(fields, now: now)
      return .waypoints(count: 1)
    case "lwt":
      return .lastWill(try fields.time("tst", now: now, required: false) ?? now)
    case "encrypted":
      // Opened by whoever holds the person's key (the daemon's OwnTracksEnvelope), which decodes what is inside.
      throw OwnTracksError("the payload is encrypted", sealed: true)
    default:
      guard type.utf8.count <= 64 else { throw OwnTracksError("the _type is longer than 64 bytes") }
      return .ignored(type: type)
    }
  }

  /// A region as the app lists it: a real coordinate, a radius a phone can
  /// watch (100 km is far beyond any OS's regions), a creation stamp that is
  /// a non-negative epoch second. Not bounded by now: the daemon's own
  /// regions carry made-up stamps (Android keys regions by them).
  static func checkWaypoint(_ fields: OwnTracksFields, now: Date) throws {
    _ = try fields.coordinate(required: true)
    _ = try fields.number("rad", in: 0...100_000)
    _ = try fields.number("tst", in: 0...4_000_000_000)
  }

  static func fix(_ fields: OwnTracksFields, now: Date) throws -> PhoneFix {
    let coordinate = try fields.coordinate(required: true)!
    let status = try fields.number("bs", in: 0...3)
    return PhoneFix(
      coordinate: coordinate, accuracy: try fields.number("acc", in: 0...1_000_000), at: try fields.time("tst", now: now)!,
      battery: try fields.number("batt", in: -1...100).map { Int($0) }, charging: status.map { $0 == 2 || $0 == 3 },
      trigger: try fields.string("t", maxLength: 8),
      // Informational: a mode this codec does not know is no reason to drop a fix.
      monitoring: (try? fields.number("m", in: -1...2))?.map { Int($0) },
      stationary: stationary(fields.object["motionactivities"]), network: network(fields.object))
  }

  /// Both apps' extended data: the access point's BSSID while joined to
  /// Wi-Fi (Android `BSSID`, iOS `bssid`), `conn` "m" (mobile) or "o"
  /// (offline) otherwise. Informational: a value this codec cannot read
  /// says nothing and drops nothing; a `conn` of "w" without a BSSID (an
  /// app not allowed to read it) says nothing either.
  static func network(_ object: [String: JSONValue]) -> PhoneNetwork? {
    if case .string(let bssid)? = object["BSSID"] ?? object["bssid"], (1...64).contains(bssid.utf8.count),
      bssid.unicodeScalars.allSatisfy({ (0x21...0x7e).contains($0.value) })
    {
      return .wifi(bssid.lowercased())
    }
    if case .string(let connection)? = object["conn"], connection == "m" || connection == "o" { return .noWifi }
    return nil
  }

  /// iOS sends CMMotionActivity's flags with every location (extended
  /// data, on by default): any sign of walking, running, cycling or driving
  /// is moving; "stationary" alone (a stopped car included) is still;
  /// nothing, "unknown" or a malformed list says nothing. Informational,
  /// like `m`: a list this codec cannot read does not drop the fix.
  static func stationary(_ value: JSONValue?) -> Bool? {
    guard case .array(let items)? = value, items.count <= 8 else { return nil }
    let activities = Set(items.compactMap { item -> String? in if case .string(let name) = item { name } else { nil } })
    if !activities.isDisjoint(with: ["walking", "running", "cycling"]) { return false }
    if activities.contains("automotive") { return activities.contains("stationary") }
    return activities.contains("stationary") ? true : nil
  }

  /// The answer body: a JSON array of `cmd` messages only, which both apps parse.
  public static func encode(_ commands: [PhoneCommand]) -> Data {
    // Most answers carry nothing.
    if commands.isEmpty { return Data("[]".utf8) }
    return serialize(.array(commands.map(message)))
  }

  /// One `cmd` message per command, for MQTT's `…/cmd` topic.
  public static func encodeEach(_ commands: [PhoneCommand]) -> [Data] {
    commands.map { serialize(message($0)) }
  }

  static func message(_ command: PhoneCommand) -> JSONValue {
    switch command {
    case .clearRegions:
      return .object(["_type": .string("cmd"), "action": .string("clearWaypoints")])
    case .reportLocation:
      return .object(["_type": .string("cmd"), "action": .string("reportLocation")])
    case .setRegions(let regions):
      let list = regions.map { region -> JSONValue in
        .object([
          "_type": .string("waypoint"), "desc": .string(region.name), "lat": .number(region.center.latitude),
          "lon": .number(region.center.longitude), "rad": .number(region.radius.rounded()), "tst": .number(Double(region.stamp)),
          "rid": .string(region.id),
        ])
      }
      return .object([
        "_type": .string("cmd"), "action": .string("setWaypoints"),
        "waypoints": .object(["_type": .string("waypoints"), "waypoints": .array(list)]),
      ])
    case .setMonitoring(let monitoring):
      var configuration: [String: JSONValue] = ["_type": .string("configuration"), "monitoring": .number(Double(monitoring.mode))]
      // iOS reads locatorInterval in move mode, Android moveModeLocatorInterval;
      // each app ignores the other's key.
      if let interval = monitoring.interval {
        configuration["locatorInterval"] = .number(Double(interval))
        configuration["moveModeLocatorInterval"] = .number(Double(interval))
      }
      if let displacement = monitoring.displacement { configuration["locatorDisplacement"] = .number(Double(displacement)) }
      return .object(["_type": .string("cmd"), "action": .string("setConfiguration"), "configuration": .object(configuration)])
    }
  }

  static func serialize(_ value: JSONValue) -> Data {
    Data(value.compactText.utf8)
  }
}
