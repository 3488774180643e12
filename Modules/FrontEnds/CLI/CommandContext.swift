import ArgumentParsing
import Composition
import Engine
import Foundation

/// What every command gets: the output, the environment, global flags, and
/// the runtime, booted on first use so `--help` never opens a store.
final class CommandContext {
  let output: any TextOutput
  let environment: [String: String]
  let arguments: ParsedArguments
  let style: Style
  private(set) var runtime: Runtime?
  /// Where answers to questions come from: standard input, or a test's script.
  var readLine: @Sendable () -> String? = { Swift.readLine() }

  init(output: any TextOutput, environment: [String: String], arguments: ParsedArguments) {
    self.output = output
    self.environment = environment
    self.arguments = arguments
    let colour = output.isTerminal && environment["NO_COLOR"].map(\.isEmpty) ?? true && !arguments.has("no-color")
    self.style = Style(enabled: colour && !arguments.has("json"), timeZone: Runtime.timeZone(environment))
  }

  var json: Bool { arguments.has("json") }

  /// `TZ` as an IANA name (`Europe/Helsinki`, `:Europe/Helsinki`, `UTC`); otherwise the machine's zone.
  var launchOptions: LaunchOptions {
    get throws {
      var overrides: [String: String] = [:]
      if let store = arguments.value("store") { overrides["store"] = store }
      if let server = arguments.value("server") {
        guard arguments.value("store") == nil else {
          throw UsageError("--server and --store both name a store; give one", commandPath: arguments.commandPath)
        }
        overrides["store"] = "remote:" + server
      }
      var profile: Profile?
      if let name = arguments.value("profile") {
        guard let parsed = Profile(rawValue: name) else {
          throw UsageError(
            "unknown profile '\(name)'; profiles: \(Profile.allCases.map(\.rawValue).joined(separator: ", "))",
            commandPath: arguments.commandPath)
        }
        profile = parsed
      }
      var options = LaunchOptions(
        program: .cli, profile: profile, configPath: arguments.value("config"), overrides: overrides,
        environment: environment)
      if arguments.value("server") != nil { options.flags["store"] = "--server" }
      return options
    }
  }

  /// The engine, with the whole store read first, so a store that cannot
  /// be read fails here (a store opened lazily reads at first need); with
  /// `part`, for a command that reads or changes only the entities it
  /// names (`check`, `place show`, `task show`, `task list`, `task add`,
  /// a task's Done, Later and edits, `place add` without lists, `place
  /// edit`, `place tag`, `list create`, `list add`, `list remove`, `list
  /// all`, `list show`, `list delete`), without.
  func engine(part: Bool = false) throws -> Engine {
    let booted = try runtime ?? Runtime.boot(launchOptions)
    runtime = booted
    if !part, !readWhole {
      try booted.store.refresh()
      readWhole = true
    }
    return booted.engine
  }

  private var readWhole = false

  /// Suggestions read the store's parts they need (saving reads it whole).
  func suggestions() throws -> SuggestionService {
    _ = try engine(part: true)
    return try runtime!.suggestions()
  }

  func imports() throws -> ImportService {
    _ = try engine()
    return try runtime!.imports()
  }

  func refresher() throws -> RefreshService {
    _ = try engine()
    return try runtime!.refresher()
  }

  /// The settings in force (the runtime must be booted).
  var settings: Settings { runtime!.config.settings }

  func close() { runtime?.shutdown() }

  /// Prints a value as one JSON document (sorted keys, ISO-8601 dates).
  func printJSON<Value: Encodable>(_ value: Value) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    // Views are plain values; encoding cannot fail.
    output.out(String(decoding: try! encoder.encode(value), as: UTF8.self))
  }
}
