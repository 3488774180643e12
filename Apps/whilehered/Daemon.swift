import ArgumentParsing
import CLI
import Analytics
import Composition
import Daemon
import DaemonSimulation
import Domain
import Foundation

enum DaemonMain {
  static let options: [OptionSpec] = [
    .value("config", "FILE", "config file (default $XDG_CONFIG_HOME/whilehere/config.json)"),
    .value("profile", "NAME", "cli, headless or testing (default headless)"),
    .value("store", "PROVIDER", "store provider, e.g. file:DIR (overrides config)"),
    .value("listen", "ADDRESS:PORT", "where the HTTP server listens (default 127.0.0.1:8083)"),
    .value("cluster", "NATS-URL", "run as one of a cluster's workers: reports queued on these NATS servers (overrides cluster.nats; Docs/Cluster.md)"),
    .value("replay", "FILE", "feed JSON lines (OwnTracks messages or trace fixes) from FILE, or - for standard input"),
    .value("person", "NAME", "whose device --replay stands for"),
    .flag("restamp", "shift the replayed trace so its first fix is taken now, keeping the time between fixes (old traces still fire)"),
    .flag("once", "with --replay: stop after the last line instead of serving on"),
    .flag("demo", "a live demo: the map page with a demo person (demo/demo) whose simulated phone walks central Helsinki; nothing is kept"),
    .value("speed", "N", "with --demo: simulated seconds per real second (default 10)"),
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

    let demo = parsed.has("demo")
    let speed = Double(parsed.value("speed") ?? "10") ?? 0
    guard !demo || (speed >= 1 && speed <= 1000) else {
      log("--speed must be a number from 1 to 1000")
      return ExitCode.usage
    }
    let demoDirectory = demo ? FileManager.default.temporaryDirectory.appendingPathComponent("whilehered-demo-\(getpid())") : nil
    defer { if let demoDirectory { try? FileManager.default.removeItem(at: demoDirectory) } }
    let runtime: Runtime
    do {
      var configPath = parsed.value("config")
      if let demoDirectory {
        guard configPath == nil, parsed.value("store") == nil, parsed.value("replay") == nil else {
          throw UsageError("--demo brings its own config and in-memory store; leave out --config, --store and --replay", commandPath: ["whilehered"])
        }
        try FileManager.default.createDirectory(at: demoDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = demoDirectory.appendingPathComponent("config.json").path
        let hash = try Runtime.passwordHasher().hash(LiveDemo.person)
        let text = LiveDemo.config(listen: parsed.value("listen") ?? "127.0.0.1:8083", hash: hash)
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
          throw UsageError("cannot write the demo's config in \(demoDirectory.path)", commandPath: ["whilehered"])
        }
        configPath = path
      }
      var overrides: [String: String] = [:]
      if let store = parsed.value("store") { overrides["store"] = store }
      if let listen = parsed.value("listen") { overrides["server.listen"] = listen }
      if let cluster = parsed.value("cluster") { overrides["cluster.nats"] = cluster }
      let profile = try parsed.value("profile").map { name in
        guard let profile = Profile(rawValue: name) else {
          throw UsageError("unknown profile '\(name)'", commandPath: ["whilehered"])
        }
        return profile
      }
      var options = LaunchOptions(program: .headless, profile: profile, configPath: configPath, overrides: overrides, environment: environment)
      options.flags = ["server.listen": "--listen", "cluster.nats": "--cluster"]
      runtime = try Runtime.boot(options)
    } catch {
      log("cannot start: \(error)")
      return ExitCode.of(error)
    }
    CrashReporter.install(program: .daemon, version: Version(CLI.version), environment: environment)
    let host: DaemonHost
    var walker: LiveDemo?
    do {
      var tuning = DaemonHost.Tuning()
      if demo {
        tuning.demo = LiveDemo.person
        tuning.manualTicks = true
      }
      host = try DaemonHost.start(runtime: runtime, tuning: tuning)
    } catch {
      runtime.shutdown()
      log("cannot start: \(error)")
      return ExitCode.of(error)
    }
    if demo, let clock = runtime.clock as? ManualClock {
      do {
        walker = try LiveDemo(host: host, clock: clock, speed: speed) { log($0) }
      } catch {
        host.stop()
        runtime.shutdown()
        log("cannot start the demo: \(error)")
        return ExitCode.of(error)
      }
    }
    var replayFinished: (@Sendable () -> Void)?
    if let path = parsed.value("replay") {
      do {
        guard let person = parsed.value("person") else {
          throw UsageError("--replay needs --person NAME: whose device it stands for", commandPath: ["whilehered"])
        }
        replayFinished = try host.replay(path: path, person: person, restamp: parsed.has("restamp"), clock: runtime.clock)
      } catch {
        host.stop()
        runtime.shutdown()
        log("cannot start: \(error)")
        return ExitCode.of(error)
      }
    }
    let store = runtime.store.describe()
    if host.peopleCount == 0 {
      log("nobody is configured, so every report is refused; add someone with: whilehere user add NAME")
    }
    if demo { log("demo: open \(host.baseURL)/ and sign in as \(LiveDemo.person), password \(LiveDemo.person)") }
    log("ready: profile \(runtime.config.profile.rawValue), config \(runtime.config.configFile ?? "none"), store \(store.kind) \(store.location), listening \(host.baseURL)\(host.listensToMQTT ? ", mqtt \(runtime.config.settings.mqttHost):\(runtime.config.settings.mqttPort)" : ""), people \(host.peopleCount), pid \(getpid())")

    if parsed.has("once"), let replayFinished {
      replayFinished()
      log("stopping: the replay is finished")
    } else {
      var received: Int32 = 0
      sigwait(&stopSignals, &received)
      log("stopping on signal \(received)")
    }
    walker?.stop()
    host.stop()
    runtime.shutdown()
    log("stopped")
    return ExitCode.ok
  }

  static func log(_ message: String) {
    print("whilehered: \(message)")
    fflush(nil)
  }
}
