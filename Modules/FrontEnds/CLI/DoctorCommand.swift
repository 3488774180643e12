import ArgumentParsing
import Composition
import Domain
import Foundation
import Partitions
import Persistence

/// `whilehere doctor`: which profile, which config file, which provider
/// serves each port, and how the store is. Prints what it can even when the
/// store cannot be opened, then exits with that error's code.
enum DoctorCommand {
  struct Report: Encodable {
    struct Provider: Encodable {
      let port: String
      let provider: String
      let source: String
    }

    let profile: String
    let profileSource: String
    let configFile: String?
    let permissions: [String]
    let providers: [Provider]
    var store: [String: String]?
    /// What whilehered would refuse in the `notify` entries, per person.
    var notifyProblems: [String] = []
    /// Daemon ports (`server.http`, `server.hasher`, …) naming an entry the registry lacks.
    var portProblems: [String] = []
    /// Repairs the store made on its own that nobody was shown yet; shown once.
    var notices: [String] = []
    var problem: String?
    var daemon: Daemon
    /// Sync transports configured, and each other replica's last contact.
    var sync: [String]
    var replicas: [String: String]
    /// A crash report an earlier run left (kept until sent with consent).
    var crash: CrashReporter.Report?
    /// allow, deny or undecided, and where events would go.
    var analytics: String
    var analyticsSinks: [String]
  }

  /// The headless profile's setup, and what the running daemon last reported.
  struct Daemon: Encodable {
    let listen: String
    let people: [String]
    let notify: [String]
    let mqtt: String?
    let gpsd: String?
    let status: DaemonStatus?
    /// Whether the pid the daemon last reported still runs (nil: no report).
    var alive: Bool? = nil
    /// In a cluster (`cluster.nats`): the servers, and who holds which partition now.
    var cluster: String? = nil
    var partitions: PartitionTable? = nil
    var clusterProblem: String? = nil
  }

  static var command: CommandSpec<CommandContext> {
    CommandSpec("doctor", "Show the setup: profile, config file, providers, store state", action: run)
  }

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws {
    let config = try ConfigLoader.load(context.launchOptions)
    let settings = config.settings
    var report = Report(
      profile: config.profile.rawValue, profileSource: config.profileSource, configFile: config.configFile,
      permissions: settings.permissions.explanation,
      providers: [("store", ClusterPorts.shown(settings.store)), ("clock", settings.clock), ("ids", settings.ids), ("places", settings.places)].map {
        Report.Provider(port: $0.0, provider: $0.1, source: settings.sources[$0.0] ?? "")
      },
      daemon: Daemon(
        listen: settings.serverListen, people: settings.people.keys.sorted(),
        notify: settings.notify + settings.people.keys.sorted().flatMap { name in settings.people[name]!.notify.map { "\(name): \($0)" } },
        mqtt: settings.mqttHost.isEmpty ? nil : "\(settings.mqttHost):\(settings.mqttPort)",
        gpsd: settings.gpsdHost.isEmpty ? nil : "\(settings.gpsdHost):\(settings.gpsdPort) for \(settings.gpsdPerson)",
        status: DaemonStatus.path(store: settings.store, environment: context.environment).flatMap(DaemonStatus.read)),
      sync: settings.sync, replicas: [:], crash: CrashReporter.pending(context.environment),
      analytics: AnalyticsConsent.load(context.environment).rawValue, analyticsSinks: settings.analyticsSinks)
    report.notifyProblems = NotifyCheck.problems(settings, environment: context.environment)
    let portErrors = ProviderRegistry.standard.daemonPortProblems(settings)
    report.portProblems = portErrors.map { "\($0)" }
    if !settings.clusterNATS.isEmpty {
      report.daemon.cluster = ClusterPorts.shown(settings.clusterNATS)
      do { report.daemon.partitions = try ClusterPorts.table(settings, now: Date()) } catch { report.daemon.clusterProblem = "\(error)" }
    }
    if let status = report.daemon.status {
      // A daemon killed with -9 never wrote "stopped"; its pid tells.
      report.daemon.alive = kill(status.pid, 0) == 0 || errno == EPERM
    }
    var failure: (any Error)?
    var shown: (any NoticeKeepingStore)?
    do {
      let runtime = try Runtime.wire(config, environment: context.environment)
      defer { runtime.shutdown() }
      report.replicas = runtime.syncService().lastContacts()
      // A store opened lazily reads everything here, so damage anywhere is reported.
      try runtime.store.refresh()
      let description = runtime.store.describe()
      var store = ["kind": description.kind, "location": description.location]
      for (key, value) in description.details { store[key] = value }
      report.store = store
      report.notices = description.notices
      if !description.notices.isEmpty { shown = runtime.store as? any NoticeKeepingStore }
      if let writable = store["writable"], writable.hasPrefix("no") {
        let error = StoreError.readOnly(path: description.location, reason: "the directory is read-only")
        failure = error
        report.problem = "\(error)"
      }
    } catch {
      failure = error
      report.problem = "\(error)"
    }
    if context.json {
      context.printJSON(report)
    } else {
      print(report, settings: settings, context)
    }
    // Shown once: later runs stay quiet about a repair the person has seen.
    try? shown?.acknowledgeNotices()
    if failure == nil, let first = report.notifyProblems.first {
      // Exit as the daemon would at start: a configuration error.
      failure = ConfigError.invalidValue(source: "notify", key: "notify", value: first, allowed: "what whilehered accepts (see above)")
    }
    if failure == nil, let first = portErrors.first { failure = first }
    if failure == nil, let problem = report.daemon.clusterProblem {
      failure = ConfigError.invalidValue(source: "cluster.nats", key: "cluster.nats", value: ClusterPorts.shown(settings.clusterNATS), allowed: "NATS servers whose leases can be read: \(problem)")
    }
    if let failure { throw ReportedError(underlying: failure) }
  }

  static func print(_ report: Report, settings: Settings, _ context: CommandContext) {
    let out: (String) -> Void = context.output.out
    let style = context.style
    out("profile   \(report.profile)  " + style.dim("(\(report.profileSource))"))
    out("config    " + (report.configFile ?? "none; defaults in use (create $XDG_CONFIG_HOME/whilehere/config.json, see Docs/Configuration.md)"))
    out("radius    \(Formatting.meters(settings.radiusMinimum)) to \(Formatting.meters(settings.radiusMaximum)), default \(Formatting.meters(settings.radiusDefault))")
    out("ports")
    for provider in report.providers {
      out("  \(HelpFormatter.pad(provider.port, 6))  \(provider.provider)  " + style.dim("(\(provider.source))"))
    }
    let daemon = report.daemon
    out("daemon    listen \(daemon.listen), \(daemon.people.count) people" + (daemon.people.isEmpty ? " (add one: whilehere user add NAME)" : ": " + daemon.people.joined(separator: ", ")))
    out("          notify " + (daemon.notify.isEmpty ? "console (whilehered's default)" : daemon.notify.joined(separator: ", ")))
    for problem in report.notifyProblems + report.portProblems { out("          " + style.red("refused") + " \(problem)") }
    if let mqtt = daemon.mqtt { out("          mqtt \(mqtt)") }
    if let gpsd = daemon.gpsd { out("          gpsd \(gpsd)") }
    if let cluster = daemon.cluster {
      out("          cluster \(cluster): " + (daemon.partitions?.summary ?? style.red("cannot read the leases: \(daemon.clusterProblem ?? "")")))
    }
    if let status = daemon.status {
      var state = status.running ? "running as pid \(status.pid) at \(status.listening)" : "stopped"
      if status.running, daemon.alive == false { state += " — " + style.red("but pid \(status.pid) is gone (killed, or the machine restarted)") }
      out("          last report \(Formatting.time(status.updatedAt, in: style.timeZone)): \(state)")
      for (name, counts) in status.deliveries.sorted(by: { $0.key < $1.key }) where counts.delivered + counts.retrying + counts.failed > 0 {
        let trouble = counts.failed + counts.retrying > 0
        let line = "  \(name): \(counts.delivered) delivered, \(counts.retrying) retrying, \(counts.failed) failed" + (counts.lastError.map { "; last error: \($0)" } ?? "")
        out("        " + (trouble ? style.red(line) : line))
      }
    }
    out("sync      " + (report.sync.isEmpty ? "none configured (whilehere sync --via folder:PATH or server:URL)" : report.sync.joined(separator: ", ")))
    for (replica, when) in report.replicas.sorted(by: { $0.key < $1.key }) {
      out("          replica \(replica): last contact \(when)")
    }
    let consent = report.analytics == "allow" ? "allowed" : report.analytics == "deny" ? "denied" : "not chosen (nothing is recorded)"
    out("analytics \(consent); sinks: " + (report.analyticsSinks.isEmpty ? "none" : report.analyticsSinks.joined(separator: ", ")))
    if let crash = report.crash {
      out(style.red("crash") + "     \(crash.program) \(crash.version) died of signal \(crash.signal)" + (crash.ran.isEmpty ? "" : " while running \(crash.ran.joined(separator: ", "))")
        + " (report: \(CrashReporter.reportPath(context.environment)); sent only if you allow analytics)")
    }
    let arrival = settings.arrival
    let coverage = arrival.coverage
    let session = arrival.session
    out(
      "arrival   \(coverage.maxDestinations) destinations with approach zones\(coverage.edgeRegion ? " and a coverage edge" : ""), "
        + "OS capacity \(coverage.osCapacity) (\(coverage.reserved) reserved)")
    out(
      "          precise sessions up to \(Int(session.maxDuration)) s (\(Int(session.reducedMaxDuration)) s on low battery, Low Power Mode or heat), "
        + "budget \(Int(session.allowance / 60)) min per \(Int(session.window / 3600)) h" + style.dim("  (\(settings.sources["arrival"] ?? "defaults"))"))
    let reminders = settings.reminders
    out("reminders [\(reminders.doneTitle)]  [\(reminders.laterTitle)] (\(DurationText.format(reminders.laterDuration)))")
    for (index, line) in settings.permissions.explanation.enumerated() {
      out((index == 0 ? "allowed   " : "          ") + line)
    }
    if let store = report.store {
      let health = report.problem == nil ? style.green("ok") : style.red("problem")
      out("store     " + health + "  \(store["kind"] ?? "")  \(store["location"] ?? "")")
      let keys = store.keys.sorted().filter { $0 != "kind" && $0 != "location" }
      let width = keys.map(\.count).max() ?? 0
      for key in keys { out("  \(HelpFormatter.pad(key, width))  \(store[key]!)") }
    }
    for notice in report.notices { out("store     " + style.yellow("notice") + "  \(notice)") }
    if let problem = report.problem { out("store     " + style.red("problem") + "  \(problem)") }
  }
}
