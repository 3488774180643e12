import Foundation
import Domain
import Sodium

/// One person the daemon serves, from the config file's `people` object:
/// `"people": {"alice": {"password": "$argon2id$…", "devices": ["phone"], "notify": ["ntfy:…"]}}`.
public struct PersonSettings: Sendable, Equatable {
  /// An Argon2id hash (`whilehere user add NAME` writes it); never the password.
  public var password: String
  /// Device names (OwnTracks `X-Limit-D` / `d=`) allowed to report; empty allows any.
  public var devices: [String] = []
  /// Devices whose OwnTracks app allows remote configuration (its "remote
  /// configuration" and "cmd" settings on): for a precise session the daemon
  /// switches such a device to move mode and back. Empty: no device is
  /// reconfigured, sessions only ask for a report.
  public var remoteConfiguration: [String] = []
  /// Notification sinks for this person, after the global `notify` ones.
  public var notify: [String] = []
  /// Regions the phone watches at most: 20 for iOS, up to 100 on Android.
  public var capacity = 20
  /// The HMAC key for this person's `webhook:` sinks.
  public var webhookSecret = ""
  /// An access token for a protected ntfy server (`tk_…`).
  public var ntfyToken = ""
  /// The OwnTracks app's payload encryption key, when set in the app:
  /// reports come sealed with it and answers go back sealed (the apps use
  /// its first 32 bytes). Empty: payloads are plain.
  public var encryptionKey = ""
  /// Device credentials by device name (`whilehere device add`): stored
  /// forms of high-entropy tokens, checked with a fast keyed hash, so a
  /// phone proves itself without the person's password or Argon2id work.
  public var deviceKeys: [String: String] = [:]

  public init(password: String) {
    self.password = password
  }

  /// The person's local time (an IANA name such as `Europe/Helsinki`):
  /// opening hours and snooze times are read in it. nil: the daemon's (`TZ`).
  public var timeZone: TimeZone?
  static let keys = [
    "password", "devices", "remoteConfiguration", "notify", "capacity", "webhookSecret", "ntfyToken", "encryptionKey", "deviceKeys", "timeZone",
  ]

  /// Lower-case letters, digits, `-` and `_`, 1 to 32 of them: safe as a
  /// directory name and an MQTT topic level.
  /// A value as an error quotes it: a string as it is, anything else as JSON.
  static func shown(_ value: JSONValue) -> String {
    if case .string(let text) = value { return text }
    return value.compactText
  }

  public static func isValidName(_ name: String) -> Bool {
    (1...32).contains(name.count) && name.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" || $0 == "_" }
  }

  static func parse(name: String, _ value: JSONValue, source: String) throws -> PersonSettings {
    let key = "people.\(name)"
    guard isValidName(name) else {
      throw ConfigError.invalidValue(source: source, key: key, value: name, allowed: "1–32 lower-case letters, digits, - or _")
    }
    guard case .object(let object) = value else { throw ConfigError.wrongType(source: source, key: key, expected: "an object") }
    for field in object.keys where !keys.contains(field) {
      throw ConfigError.unknownKey(source: source, key: "\(key).\(field)", known: keys.map { "\(key).\($0)" })
    }
    guard case .string(let hash)? = object["password"], hash.hasPrefix("$argon2id$") else {
      throw ConfigError.invalidValue(
        source: source, key: "\(key).password", value: "…", allowed: "an Argon2id hash; set one with: whilehere user add \(name)")
    }
    var person = PersonSettings(password: hash)
    person.devices = try strings(object["devices"], key: "\(key).devices", source: source)
    person.notify = try strings(object["notify"], key: "\(key).notify", source: source)
    person.remoteConfiguration = try strings(object["remoteConfiguration"], key: "\(key).remoteConfiguration", source: source)
    if let value = object["deviceKeys"] {
      guard case .object(let keys) = value else {
        throw ConfigError.wrongType(source: source, key: "\(key).deviceKeys", expected: "an object of device → key")
      }
      for (device, stored) in keys {
        guard case .string(let text) = stored, DeviceKey.isStoredForm(text) else {
          throw ConfigError.invalidValue(
            source: source, key: "\(key).deviceKeys.\(device)", value: "…", allowed: "a key from: whilehere device add \(name) \(device)")
        }
        person.deviceKeys[device] = text
      }
    }
    if !person.devices.isEmpty, let stranger = person.remoteConfiguration.first(where: { !person.devices.contains($0) }) {
      throw ConfigError.invalidValue(
        source: source, key: "\(key).remoteConfiguration", value: stranger, allowed: "one of \(key).devices (\(person.devices.joined(separator: ", ")))")
    }
    if let value = object["capacity"] {
      guard case .number(let number) = value, number == number.rounded(), (1...100).contains(number) else {
        throw ConfigError.invalidValue(source: source, key: "\(key).capacity", value: Self.shown(value), allowed: "a whole number from 1 to 100")
      }
      person.capacity = Int(number)
    }
    if let value = object["timeZone"] {
      guard case .string(let name) = value, let zone = TimeZone(identifier: name) else {
        throw ConfigError.invalidValue(
          source: source, key: "\(key).timeZone", value: Self.shown(value), allowed: "an IANA time zone name such as Europe/Helsinki")
      }
      person.timeZone = zone
    }
    for (field, path) in [
      ("webhookSecret", \PersonSettings.webhookSecret), ("ntfyToken", \PersonSettings.ntfyToken), ("encryptionKey", \PersonSettings.encryptionKey),
    ] {
      guard let value = object[field] else { continue }
      guard case .string(let text) = value else { throw ConfigError.wrongType(source: source, key: "\(key).\(field)", expected: "a string") }
      person[keyPath: path] = text
    }
    return person
  }

  /// A list of strings (a single string is a list of one).
  static func strings(_ value: JSONValue?, key: String, source: String) throws -> [String] {
    switch value {
    case nil, .null?: return []
    case .string(let text)?: return [text]
    case .array(let items)?:
      return try items.map { item in
        guard case .string(let text) = item else { throw ConfigError.wrongType(source: source, key: key, expected: "a list of strings") }
        return text
      }
    default: throw ConfigError.wrongType(source: source, key: key, expected: "a list of strings")
    }
  }
}
