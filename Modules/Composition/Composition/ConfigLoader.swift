import Domain
import Foundation

/// Layers configuration, weakest first: profile defaults, the JSON config
/// file (`--config`, `WHILEHERE_CONFIG`, or `$XDG_CONFIG_HOME/whilehere/config.json`
/// when it exists), `WHILEHERE_*` environment, flags.
public enum ConfigLoader {
  public static func load(_ options: LaunchOptions) throws -> ResolvedConfig {
    let env = options.environment
    let explicitPath = options.configPath ?? env["WHILEHERE_CONFIG"]
    let path = explicitPath.map { XDG.expandTilde($0, env) } ?? defaultPath(env)
    let file = try path.map { try readFile($0, required: explicitPath != nil) } ?? nil

    var profile = options.program
    var profileSource = "program default"
    if let name = file?.profile {
      profile = try parseProfile(name, source: "config file \(path!)")
      profileSource = "config file \(path!)"
    }
    if let name = env["WHILEHERE_PROFILE"] {
      profile = try parseProfile(name, source: "environment WHILEHERE_PROFILE")
      profileSource = "environment WHILEHERE_PROFILE"
    }
    if let flag = options.profile {
      profile = flag
      profileSource = "flag --profile"
    }

    var settings = profile.defaults(environment: env)
    for key in Settings.keys.map(\.key) { settings.sources[key] = "profile \(profile.rawValue)" }
    for (key, value) in file?.values ?? [] { try settings.set(key, value, source: "config file \(path!)") }
    if let arrival = file?.arrival {
      settings.arrival = try CodableOverrides.apply(arrival, to: settings.arrival, key: "arrival", source: "config file \(path!)")
      settings.sources["arrival"] = "config file \(path!)"
    }
    if let reminders = file?.reminders {
      settings.reminders = try CodableOverrides.apply(reminders, to: settings.reminders, key: "reminders", source: "config file \(path!)")
    }
    if let people = file?.people {
      for (name, value) in people { settings.people[name] = try PersonSettings.parse(name: name, value, source: "config file \(path!)") }
      settings.sources["people"] = "config file \(path!)"
    }
    if let permissions = file?.permissions {
      settings.permissions = try CodableOverrides.apply(permissions, to: settings.permissions, key: "permissions", source: "config file \(path!)")
    }
    for (key, variable) in Settings.keys {
      if let value = env[variable] { try settings.set(key, value, source: "environment \(variable)") }
    }
    for (key, value) in options.overrides.sorted(by: { $0.key < $1.key }) {
      try settings.set(key, value, source: "flag " + (options.flags[key] ?? "--" + key.replacingOccurrences(of: ".", with: "-")))
    }
    try settings.validate()
    return ResolvedConfig(
      profile: profile, profileSource: profileSource, configFile: file == nil ? nil : path, settings: settings,
      program: options.program)
  }

  static func defaultPath(_ env: [String: String]) -> String? {
    let path = XDG.configHome(env) + "/whilehere/config.json"
    return FileManager.default.fileExists(atPath: path) ? path : nil
  }

  static func parseProfile(_ name: String, source: String) throws -> Profile {
    guard let profile = Profile(rawValue: name) else {
      throw ConfigError.invalidValue(
        source: source, key: "profile", value: name, allowed: Profile.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return profile
  }

  struct FileContents {
    var profile: String?
    var values: [(String, String)]
    var arrival: [String: JSONValue]?
    var permissions: [String: JSONValue]?
    var reminders: [String: JSONValue]?
    var people: [String: JSONValue]?
  }

  static func readFile(_ path: String, required: Bool) throws -> FileContents? {
    // Said before reading: Foundation leaks the buffer it reads an empty file into (FuzzConfig found it).
    if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 0 {
      throw ConfigError.invalidJSON(path: path, reason: "the file is empty (write {} for no settings)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      if !required { return nil }
      let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
      throw ConfigError.unreadable(path: path, reason: reason)
    }
    let root: [String: JSONValue]
    do {
      guard case .object(let object) = try JSONDecoder().decodeOutside(JSONValue.self, from: data) else {
        throw ConfigError.invalidJSON(path: path, reason: "the top level must be an object")
      }
      root = object
    } catch let error as ConfigError {
      throw error
    } catch {
      throw ConfigError.invalidJSON(path: path, reason: describe(error))
    }
    var contents = FileContents(profile: nil, values: [], arrival: nil, permissions: nil, reminders: nil, people: nil)
    try flatten(root, prefix: "", source: "config file \(path)", into: &contents)
    return contents
  }

  static func describe(_ error: any Error) -> String {
    if case DecodingError.dataCorrupted(let context) = error {
      return (context.underlyingError.map { "\($0)" } ?? context.debugDescription)
    }
    return "\(error)"
  }

  private static func flatten(_ object: [String: JSONValue], prefix: String, source: String, into contents: inout FileContents) throws {
    let known = Settings.keys.map(\.key) + ["profile", "arrival", "permissions", "reminders", "people"]
    for key in object.keys.sorted() {
      let full = prefix + key
      let value = object[key]!
      if full == "notify" || full == "sync" || full == "analytics.sink" {
        contents.values.append((full, try PersonSettings.strings(value, key: full, source: source).joined(separator: ",")))
        continue
      }
      if ["arrival", "permissions", "reminders", "people"].contains(full) {
        guard case .object(let nested) = value else {
          throw ConfigError.wrongType(source: source, key: full, expected: "an object")
        }
        switch full {
        case "arrival": contents.arrival = nested
        case "permissions": contents.permissions = nested
        case "people": contents.people = nested
        default: contents.reminders = nested
        }
        continue
      }
      if case .object(let nested) = value {
        guard known.contains(where: { $0.hasPrefix(full + ".") }) else {
          throw ConfigError.unknownKey(source: source, key: full, known: known)
        }
        try flatten(nested, prefix: full + ".", source: source, into: &contents)
        continue
      }
      guard known.contains(full) else {
        throw ConfigError.unknownKey(source: source, key: full, known: known)
      }
      let text: String
      switch value {
      case .string(let string): text = string
      case .number(let number): text = String(number)
      default:
        throw ConfigError.wrongType(source: source, key: full, expected: full.hasPrefix("radius") || full == "server.max-body" || full == "server.timeout" || full == "server.per-address" || full == "server.header-timeout" || full == "server.min-body-rate" || full == "server.threads" || full == "cluster.partitions" || full == "cluster.lease" || full == "cluster.idle" || full == "mqtt.port" || full == "gpsd.port" ? "a number" : "a string")
      }
      if full == "profile" { contents.profile = text } else { contents.values.append((full, text)) }
    }
  }
}
