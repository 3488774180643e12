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
