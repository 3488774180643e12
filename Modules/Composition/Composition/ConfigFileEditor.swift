import Domain
import Foundation

/// Changes the `people` object of a config file and nothing else: other
/// keys and other people are kept. Writes atomically, 0600 (the file holds
/// password hashes and webhook secrets).
public enum ConfigFileEditor {
  /// The file `whilehere user …` edits: `--config`, `WHILEHERE_CONFIG`, or
  /// `$XDG_CONFIG_HOME/whilehere/config.json` (made if missing).
  public static func path(explicit: String?, environment: [String: String]) -> String {
    (explicit ?? environment["WHILEHERE_CONFIG"]).map { XDG.expandTilde($0, environment) }
      ?? XDG.configHome(environment) + "/whilehere/config.json"
  }

  /// Sets a person's password hash, creating the person (and the file) if needed.
  public static func setPassword(person name: String, hash: String, devices: [String]?, path: String) throws {
    guard PersonSettings.isValidName(name) else {
      throw ConfigError.invalidValue(source: "user add", key: "NAME", value: name, allowed: "1–32 lower-case letters, digits, - or _")
    }
    try edit(path) { root in
      var people = root["people"]?.members ?? [:]
      var person = people[name]?.members ?? [:]
      person["password"] = .string(hash)
      if let devices { person["devices"] = .array(devices.map(JSONValue.string)) }
      people[name] = .object(person)
      root["people"] = .object(people)
    }
  }

  /// Stores a device's key for a person (the person must exist); the device
  /// joins the person's `devices` when that list limits them.
  public static func setDeviceKey(person name: String, device: String, stored: String, path: String) throws {
    var missing = false
    try edit(path) { root in
      var people = root["people"]?.members ?? [:]
      guard var person = people[name]?.members else {
        missing = true
        return
      }
      var keys = person["deviceKeys"]?.members ?? [:]
      keys[device] = .string(stored)
      person["deviceKeys"] = .object(keys)
      if case .array(var devices)? = person["devices"], !devices.isEmpty, !devices.contains(.string(device)) {
        devices.append(.string(device))
        person["devices"] = .array(devices)
      }
      people[name] = .object(person)
      root["people"] = .object(people)
    }
    if missing {
      throw ConfigError.invalidValue(source: "device add", key: "NAME", value: name, allowed: "a person in the config (add one: whilehere user add \(name))")
    }
  }

  /// Removes a device's key; false when it had none.
  public static func removeDeviceKey(person name: String, device: String, path: String) throws -> Bool {
    var found = false
    try edit(path) { root in
      var people = root["people"]?.members ?? [:]
      guard var person = people[name]?.members, var keys = person["deviceKeys"]?.members else { return }
      found = keys.removeValue(forKey: device) != nil
      person["deviceKeys"] = .object(keys)
      people[name] = .object(person)
      root["people"] = .object(people)
    }
    return found
  }

  /// The devices with keys, per person.
  public static func deviceKeys(person name: String, path: String) throws -> [String] {
    let root = try read(path)
    return (root["people"]?.members?[name]?.members?["deviceKeys"]?.members ?? [:]).keys.sorted()
  }

  /// Removes a person; false when there was no such person.
  public static func remove(person name: String, path: String) throws -> Bool {
    var found = false
    try edit(path) { root in
      var people = root["people"]?.members ?? [:]
      found = people.removeValue(forKey: name) != nil
      root["people"] = .object(people)
    }
    return found
  }

  /// The people the file names, sorted.
  public static func people(path: String) throws -> [String] {
    let root = try read(path)
    return (root["people"]?.members ?? [:]).keys.sorted()
  }

  static func read(_ path: String) throws -> [String: JSONValue] {
    guard let data = FileManager.default.contents(atPath: path) else {
      if FileManager.default.fileExists(atPath: path) { throw ConfigError.unreadable(path: path, reason: "permission denied") }
      return [:]
    }
    let root: JSONValue
    do { root = try JSONParser.parse(data) } catch {
      throw ConfigError.invalidJSON(path: path, reason: "\(error); fix the file before changing it")
    }
    guard case .object(let members) = root else {
      throw ConfigError.invalidJSON(path: path, reason: "the top level must be an object; fix the file before changing it")
    }
    return members
  }

  static func edit(_ path: String, _ change: (inout [String: JSONValue]) throws -> Void) throws {
    var root = try read(path)
    try change(&root)
    try writePrivately(Data(JSONValue.object(root).prettyText.utf8), to: path)
  }

  /// Writes `data` to `path` in one step (a file beside it, renamed over
  /// it), created 0600 in a folder made 0700 if missing: files that name
  /// people or hold their secrets.
  static func writePrivately(_ data: Data, to path: String) throws {
    // A bare file name (`--config config.json`) lives in the current directory.
    let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let temporary = path + ".tmp-\(getpid())"
    guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
      throw ConfigError.unreadable(path: temporary, reason: "cannot write")
    }
    guard rename(temporary, path) == 0 else {
      unlink(temporary)
      throw ConfigError.unreadable(path: path, reason: "cannot replace: \(String(cString: strerror(errno)))")
    }
  }
}
