import ArgumentParsing
import CLI
import Composition
import Foundation

enum Daemon {
  static let options: [OptionSpec] = [
    .value("config", "FILE", "config file (default $XDG_CONFIG_HOME/whilehere/config.json)"),
    .value("profile", "NAME", "cli, headless or testing (default headless)"),
    .value("store", "PROVIDER", "store provider, e.g. file:DIR (overrides config)"),
  ]

  static func main(arguments: [String], environment: [String: String]) -> Int32 {
    // Block the stop signals before any thread starts, so every thread
    // inherits the mask and only `sigwait` below receives them.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGTERM)
    sigaddset(&stopSignals, SIGINT)
    pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

    let root = CommandSpec<Void>("whilehered", "WhileHere daemon (headless profile)", options: options) { _, _ in }
    let parsed: ParsedArguments
    do {
      switch try ArgumentParser.parse(arguments, root: root) {
      case .help(let command, let path):
        print(HelpFormatter.render(command, path: path, globalOptions: []))
        return ExitCode.ok
      case .run(_, let arguments): parsed = arguments
      }
    } catch {
      log("\(error)")
      return ExitCode.usage
    }

    let runtime: Runtime
    do {
      var overrides: [String: String] = [:]
      if let store = parsed.value("store") { overrides["store"] = store }
      let profile = try parsed.value("profile").map { name in
        guard let profile = Profile(rawValue: name) else {
          throw UsageError("unknown profile '\(name)'", commandPath: ["whilehered"])
        }
        return profile
      }
      runtime = try Runtime.boot(
        LaunchOptions(program: .headless, profile: profile, configPath: parsed.value("config"), overrides: overrides, environment: environment))
    } catch {
      log("cannot start: \(error)")
      return ExitCode.of(error)
    }
    let store = runtime.store.describe()
    log("ready: profile \(runtime.config.profile.rawValue), config \(runtime.config.configFile ?? "none"), store \(store.kind) \(store.location), pid \(getpid())")

    var received: Int32 = 0
    sigwait(&stopSignals, &received)
    log("stopping on signal \(received)")
    runtime.shutdown()
    log("stopped")
    return ExitCode.ok
  }

  static func log(_ message: String) {
    print("whilehered: \(message)")
    fflush(nil)
  }
}
