import Composition
import Foundation
import Testing

@Suite struct ConfigLoaderTests {
  let directory = NSTemporaryDirectory() + "whilehere-config-" + UUID().uuidString

  func write(_ json: String) -> String {
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/config.json"
    _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
    return path
  }

  func options(config: String? = nil, env: [String: String] = [:], flags: [String: String] = [:]) -> LaunchOptions {
    LaunchOptions(program: .cli, configPath: config, overrides: flags, environment: ["HOME": "/home/p"].merging(env) { $1 })
  }

  @Test func profileDefaultsPutTheStoreUnderXDGData() throws {
    let config = try ConfigLoader.load(options())
    #expect(config.settings.store == "file:/home/p/.local/share/whilehere")
    #expect(config.configFile == nil)
    let custom = try ConfigLoader.load(options(env: ["XDG_DATA_HOME": "/data"]))
    #expect(custom.settings.store == "file:/data/whilehere")
  }

  @Test func layersAreFileThenEnvironmentThenFlags() throws {
    let path = write(#"{"store": "file:/from-file", "clock": "manual", "radius": {"default": 200}}"#)
    let fromFile = try ConfigLoader.load(options(config: path))
    #expect(fromFile.settings.store == "file:/from-file" && fromFile.settings.radiusDefault == 200)
    #expect(fromFile.settings.sources["store"] == "config file \(path)")
    let fromEnv = try ConfigLoader.load(options(config: path, env: ["WHILEHERE_STORE": "memory"]))
    #expect(fromEnv.settings.store == "memory" && fromEnv.settings.sources["store"] == "environment WHILEHERE_STORE")
    let fromFlag = try ConfigLoader.load(options(config: path, env: ["WHILEHERE_STORE": "memory"], flags: ["store": "file:/flag"]))
    #expect(fromFlag.settings.store == "file:/flag" && fromFlag.settings.sources["store"] == "flag --store")
  }

  @Test func aTypoInAKeyIsNamedWithASuggestion() {
    let path = write(#"{"stor": "memory"}"#)
    let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(options(config: path)) }
    #expect(error?.description.contains("unknown key 'stor' (did you mean 'store'?)") == true)
    let nested = write(#"{"radius": {"minimum": 10}}"#)
    let nestedError = #expect(throws: ConfigError.self) { try ConfigLoader.load(options(config: nested)) }
    #expect(nestedError?.description.contains("'radius.minimum'") == true)
  }

  @Test func wrongTypesAndBadJSONAreNamed() {
    #expect(throws: ConfigError.wrongType(source: "config file \(write(#"{"store": true}"#))", key: "store", expected: "a string")) {
      try ConfigLoader.load(options(config: directory + "/config.json"))
    }
    let broken = write(#"{"store": "memory""#)
    let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(options(config: broken)) }
    #expect(error?.description.contains("is not valid JSON") == true)
  }

  @Test func anEmptyFileIsNamedAsEmpty() {
    let empty = write("")
    let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(options(config: empty)) }
    #expect(error?.description.contains("the file is empty") == true, "\(String(describing: error))")
  }

  @Test func aMissingExplicitFileIsAnError() {
    #expect(throws: ConfigError.unreadable(path: "/nonexistent/c.json", reason: "no such file")) {
      try ConfigLoader.load(options(config: "/nonexistent/c.json"))
    }
  }

  @Test func radiusBoundsMustBeConsistent() {
    let path = write(#"{"radius": {"min": 300, "default": 100}}"#)
    #expect(throws: ConfigError.self) { try ConfigLoader.load(options(config: path)) }
  }

  @Test func theTestingProfilePicksInMemoryDefaults() throws {
    let config = try ConfigLoader.load(options(env: ["WHILEHERE_PROFILE": "testing"]))
    #expect(config.profile == .testing && config.settings.store == "memory" && config.settings.clock == "manual")
    #expect(throws: ConfigError.self) { try ConfigLoader.load(options(env: ["WHILEHERE_PROFILE": "prod"])) }
  }
}

@Suite struct ArrivalConfigFileTests {
  let directory = NSTemporaryDirectory() + "whilehere-arrival-config-" + UUID().uuidString

  func load(_ json: String) throws -> ResolvedConfig {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/config.json"
    _ = FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
    return try ConfigLoader.load(LaunchOptions(program: .cli, configPath: path, environment: ["HOME": "/tmp"]))
  }

  @Test func theEnginesNumbersAreConfigurationNotConstants() throws {
    let config = try load(#"{"arrival": {"coverage": {"maxDestinations": 5, "reserved": 4, "edgeRegion": false}, "session": {"allowance": 900}, "exitMargin": 80}}"#)
    let arrival = config.settings.arrival
    #expect(arrival.coverage.maxDestinations == 5 && arrival.coverage.reserved == 4 && !arrival.coverage.edgeRegion)
    #expect(arrival.session.allowance == 900 && arrival.session.maxDuration == 600)
    #expect(arrival.exitMargin == 80)
  }

  @Test func aMistypedArrivalKeyIsNamedWithItsPath() {
    let error = #expect(throws: ConfigError.self) { try load(#"{"arrival": {"session": {"alowance": 900}}}"#) }
    #expect(error?.description.contains("'arrival.session.alowance' (did you mean 'arrival.session.allowance'?)") == true)
    let typed = #expect(throws: ConfigError.self) { try load(#"{"arrival": {"coverage": {"edgeRegion": "yes"}}}"#) }
    #expect(typed?.description.contains("'arrival.coverage.edgeRegion' must be true or false") == true)
  }

  /// A person's capacity or time zone that cannot be used is quoted as written.
  @Test func aPersonsBadCapacityOrTimeZoneIsQuotedAsWritten() {
    let capacity = #expect(throws: ConfigError.self) { try load(#"{"people": {"alice": {"password": "$argon2id$v=19$x", "capacity": 2.5}}}"#) }
    #expect(capacity?.description.contains("2.5") == true && capacity?.description.contains("a whole number from 1 to 100") == true, "\(String(describing: capacity))")
    let zone = #expect(throws: ConfigError.self) { try load(#"{"people": {"alice": {"password": "$argon2id$v=19$x", "timeZone": "Mars/Olympus"}}}"#) }
    #expect(zone?.description.contains("Mars/Olympus") == true && zone?.description.contains("\"Mars/Olympus\"\"") == false, "\(String(describing: zone))")
  }

  /// A bad value from a flag whose name is not its key's names the flag typed.
  @Test func aFlagsErrorNamesTheFlagAsTyped() {
    var options = LaunchOptions(program: .headless, overrides: ["cluster.nats": "http://x", "store": "memory"], environment: ["HOME": "/tmp"])
    options.flags = ["cluster.nats": "--cluster"]
    let error = #expect(throws: ConfigError.self) { try ConfigLoader.load(options) }
    #expect(error?.description.hasPrefix("flag --cluster: ") == true, "\(String(describing: error))")
  }
}
