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
      var people = root["people"] as? [String: Any] ?? [:]
      var person = people[name] as? [String: Any] ?? [:]
      person["password"] = hash
      if let devices { person["devices"] = devices }
      people[name] = person
      root["people"] = people
    }
  }

  /// Stores a device's key for a person (the person must exist); the device
  /// joins the person's `devices` when that list limits them.
  public static func setDeviceKey(person name: String, device: String, stored: String, path: String) throws {
    var missing = false
    try edit(path) { root in
      var people = root["people"] as? [String: Any] ?? [:]
      guard var person = people[name] as? [String: Any] else {
        missing = true
        return
      }
      var keys = person["deviceKeys"] as? [String: Any] ?? [:]
      keys[device] = stored
      person["deviceKeys"] = keys
      if var devices = person["devices"] as? [String], !devices.isEmpty, !devices.contains(device) {
        devices.append(device)
        person["devices"] = devices
      }
      people[name] = person
      root["people"] = people
    }
    if missing {
      throw ConfigError.invalidValue(source: "device add", key: "NAME", value: name, allowed: "a person in the config (add one: whilehere user add \(name))")
    }
  }

  /// Removes a device's key; false when it had none.
  public static func removeDeviceKey(person name: String, device: String, path: String) throws -> Bool {
    var found = false
    try edit(path) { root in
      var people = root["people"] as? [String: Any] ?? [:]
      guard var person = people[name] as? [String: Any], var keys = person["deviceKeys"] as? [String: Any] else { return }
      found = keys.removeValue(forKey: device) != nil
      person["deviceKeys"] = keys
      people[name] = person
      root["people"] = people
    }
    return found
  }

  /// The devices with keys, per person.
  public static func deviceKeys(person name: String, path: String) throws -> [String] {
    let root = try read(path)
    let person = (root["people"] as? [String: Any])?[name] as? [String: Any]
    return ((person?["deviceKeys"] as? [String: Any]) ?? [:]).keys.sorted()
  }

  /// Removes a person; false when there was no such person.
  public static func remove(person name: String, path: String) throws -> Bool {
    var found = false
    try edit(path) { root in
      var people = root["people"] as? [String: Any] ?? [:]
      found = people.removeValue(forKey: name) != nil
      root["people"] = people
    }
    return found
  }

  /// The people the file names, sorted.
  public static func people(path: String) throws -> [String] {
    let root = try read(path)
    return (root["people"] as? [String: Any] ?? [:]).keys.sorted()
  }

  static func read(_ path: String) throws -> [String: Any] {
    guard let data = FileManager.default.contents(atPath: path) else {
      if FileManager.default.fileExists(atPath: path) { throw ConfigError.unreadable(path: path, reason: "permission denied") }
      return [:]
    }
    guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
      throw ConfigError.invalidJSON(path: path, reason: "the top level must be an object; fix the file before changing it")
    }
    return root
  }

  static func edit(_ path: String, _ change: (inout [String: Any]) throws -> Void) throws {
    var root = try read(path)
    try change(&root)
    let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    // A bare file name (`--config config.json`) lives in the current directory.
    let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let temporary = path + ".tmp-\(getpid())"
    guard FileManager.default.createFile(atPath: temporary, contents: data + Data("\n".utf8), attributes: [.posixPermissions: 0o600]) else {
      throw ConfigError.unreadable(path: temporary, reason: "cannot write")
    }
    guard rename(temporary, path) == 0 else {
      unlink(temporary)
      throw ConfigError.unreadable(path: path, reason: "cannot replace: \(String(cString: strerror(errno)))")
    }
  }
}
