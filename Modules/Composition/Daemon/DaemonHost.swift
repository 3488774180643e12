import Analytics
import Composition
import Domain
import Engine
import Foundation
import Gateway
import Locking
import Notifications
import OwnTracks
import Persistence
import PushSinks
import WebApp

/// The running headless profile: each configured person with their store,
/// engine and sinks, the HTTP server in front, and a ticker that lets time
/// pass for sessions and snoozes. `stop()` drains and closes everything.
public final class DaemonHost: Sendable {
  public let port: Int
  public let baseURL: String
  let people: People
  let server: any HTTPServing
  let ticker: Ticker
  let mqtt: MQTTIngest?
  /// In a cluster: this process as one of its workers.
  let cluster: ClusterIngest?
  let handler: DaemonHandler
  let log: DaemonLog
  let clock: any WallClock
  let analytics: any AnalyticsSink
  /// Where `whilehere doctor` reads the daemon's state, rewritten at stop.
  let statusPath: String?
  /// The location-retention sweep (tests run it without waiting ten minutes).
  let sweepFixes: @Sendable () -> Void
  /// `daemon.local.json`, removed at stop.
  let localPath: String?
  /// Sources on this machine (gpsd, a replay), stopped with the host; and whether it was stopped.
  private let running = Locked<(locals: [LocalIngest], stopped: Bool)>(([], false))

  /// Knobs for tests, the simulator and the demo: the delivery retry
  /// delay, the password work bounds, manual time. The ports themselves
  /// (server, hasher, signer, broker, sources) come from the runtime's
  /// registry, chosen by the settings.
  public struct Tuning: Sendable {
    public var retryDelay: TimeInterval = 2
    /// Password verifications at once and waiting (default: the cores, and 64).
    public var verifyingAtOnce: Int?
    public var verificationQueue: Int?
    /// No timer: the caller lets time pass with `tick()` (a simulated clock).
    public var manualTicks = false
    /// Sees every engine event, by person (the simulator's benchmark).
    public var observe: (@Sendable (String, [ArrivalEvent]) -> Void)?
    /// The live demo's person, whose name is also the password the page fills in.
    public var demo: String?
    /// The cluster's shared ports, instead of opening `cluster.nats` (tests
    /// run several workers in one process on in-memory ones).
    public var cluster: ClusterPorts?
    public init() {}
  }

  public static func start(runtime: Runtime, log: DaemonLog = .standardOutput, tuning: Tuning = Tuning()) throws -> DaemonHost {
    let settings = runtime.config.settings
    guard let listen = Settings.listenAddress(settings.serverListen) else {
      throw DaemonError("server.listen '\(settings.serverListen)' is not ADDRESS:PORT")
    }
    let environment = ProcessInfo.processInfo.environment
    let key: Data
    let home = ProviderRegistry.storeHome(settings.store, environment: environment)
    // Beside the store, so links outlive a restart; a store with no files (memory) gets a key for this run.
    let keyPath = settings.serverKeyFile.isEmpty ? home.map { $0 + "/server.key" } : XDG.expandTilde(settings.serverKeyFile, environment)
    let registry = runtime.registry
    if let problem = registry.daemonPortProblems(settings).first { throw problem }
    let signing = try registry.port("server.signer", settings.serverSigner, in: registry.signers)
    if let keyPath {
      key = try ServerKey.load(path: keyPath, length: signing.keyLength, generate: signing.generateKey)
    } else {
      key = signing.generateKey()
    }
    let signer = try signing.make(key)
    if home != nil {
      try DescriptorLimit.ensure(DescriptorLimit.needed(people: settings.people.count, connections: HTTPServerOptions().connectionLimit))
    }
    let options = HTTPServerOptions(
      address: listen.address, port: listen.port, maxBodyBytes: settings.serverMaxBody, timeoutSeconds: settings.serverTimeout,
      perAddressLimit: settings.serverPerAddress, headerSeconds: settings.serverHeaderTimeout, minimumBodyRate: settings.serverMinBodyRate,
      threads: settings.serverThreads)
    let server = try registry.port("server.http", settings.serverHTTP, in: registry.servers).make(options)
    // The public URL is known only once the port is bound (port 0 in tests).
    let base = BaseURL(settings.serverURL)
    let clock = runtime.clock
    let factory = SinkFactory(registry: runtime.registry, log: log, environment: environment, retryDelay: tuning.retryDelay)
    let retention = FixRetention(journal: runtime.store, retention: settings.fixRetention, clock: { clock.now() })
    let analytics = try runtime.analytics(for: .daemon)
    analytics.record(.launched(.daemon, version: Version("0.1.0")))
    CrashReporter.sendPending(through: analytics, allowed: settings.analyticsDaemon, environment: environment)
    let observe = tuning.observe
    let clustered = tuning.cluster != nil || !settings.clusterNATS.isEmpty
    // Each sink's kind is checked for every person before anyone is opened,
    // so a mistake in the config stops a cluster worker at start too.
    for (name, person) in settings.people {
      for spec in settings.notify + person.notify {
        try NotifyCheck.validate(spec, person: name, settings: person, environment: environment, registry: registry)
      }
    }
    @Sendable func open(_ name: String) throws -> Person {
      let person = settings.people[name]!
      let links = ActionLinks(person: name, baseURL: { base.value }, signer: signer, clock: { clock.now() }, lifetime: 7 * 86_400)
      var sinks: [any NotificationSink] = []
      var queues: [DeliveryQueue] = []
      let relay = AnswerRelay(log: log)
      for spec in settings.notify + person.notify {
        let (sink, queue) = try factory.make(spec, person: name, settings: person, links: links, relay: relay)
        sinks.append(sink)
        if let queue { queues.append(queue) }
      }
      let store = try runtime.openPersonStore(name)
      let outboxes = sinks.map { sink in ReminderOutbox(sink, store: store) { log("outbox", ["person": name, "detail": $0]) } }
      let context = runtime.context(over: store, timeZone: person.timeZone)
      let sinkKinds = (settings.notify + person.notify).map { ProviderSpec($0).name }
      var observer: (@Sendable ([ArrivalEvent]) -> Void)?
      if let observe { observer = { observe(name, $0) } }
      let made: Person
      do {
        made = Person(
          name: name, settings: person, store: store, journal: runtime.store, context: context,
          scheduler: NotificationScheduler(sink: MultiplexNotificationSink(outboxes), category: settings.reminders.category),
          arrival: settings.arrival, queues: queues, laterDuration: settings.reminders.laterDuration, retention: retention,
          analytics: analytics, observer: observer, warn: { log("degraded", ["person": name, "detail": $0]) },
          suggestions: try runtime.suggestions(context: context), imports: try runtime.imports(context: context),
          analyticsOffered: settings.analyticsDaemon && !settings.analyticsSinks.isEmpty,
          sinkKinds: sinkKinds, remindersReachPerson: sinkKinds.contains { runtime.registry.notify[$0]?.reachesPerson ?? true },
          outboxes: outboxes, relay: relay)
        for case .degraded(let reason) in try made.phone.arrival.launch() { log("degraded", ["person": name, "detail": reason]) }
      } catch {
        relay.release()
        store.close()
        throw error
      }
      made.restoreHistory()
      made.restoreLastQueued()
      return made
    }
    let gate = VerificationGate(
      running: tuning.verifyingAtOnce ?? max(1, ProcessInfo.processInfo.activeProcessorCount), waiting: tuning.verificationQueue ?? 64)
    // A cluster worker closes idle guests by when each person was last asked for.
    let lastUseClock: (@Sendable () -> Date)? = clustered ? { @Sendable in clock.now() } : nil
    let directory = People(
      members: settings.people.map { Member(name: $0.key, settings: $0.value) },
      hasher: try registry.port("server.hasher", settings.serverHasher, in: registry.hashers).make(()), gate: gate,
      localToken: LocalDaemon.path(store: settings.store, environment: environment) == nil ? nil : LocalDaemon.makeToken(),
      journalAnswersLater: runtime.store.appendsWithoutWaiting, now: lastUseClock, open: open)
    // A single daemon serves everyone from the start. In a cluster the
    // worker that takes a person's partition opens them
    // (ClusterIngest.takeUp): restoring takes the last fix again, and may
    // remind. Reminders kept from before go first, so one the restored fix
    // fires is not sent twice.
    if !clustered {
      do {
        for name in settings.people.keys.sorted() {
          guard let made = try directory.person(name) else { continue }
          made.resendKept { log("outbox", ["person": name, "detail": $0]) }
          for notification in made.restoreLastFix() {
            log("fired", ["person": name, "task": notification.task.rawValue, "title": notification.title, "via": "restart"])
          }
        }
      } catch {
        directory.byName.values.forEach { $0.store.close() }
        throw error
      }
    }
    // Made before the handler, so /health can report it; connected once HTTP is up.
    var mqtt: MQTTIngest?
    var mqttStatus: (@Sendable () -> MQTTIngest.State)?
    if !settings.mqttHost.isEmpty {
      let broker = try registry.port("mqtt.client", settings.mqttClient, in: registry.brokers).make(settings)
      let ingest = MQTTIngest(broker: broker, people: directory, clock: { clock.now() }, log: log)
      mqtt = ingest
      mqttStatus = { ingest.state.withLock { $0 } }
    }
    var cluster: ClusterIngest?
    if let ports = try tuning.cluster ?? (settings.clusterNATS.isEmpty ? nil : ClusterPorts.open(settings)) {
      let id = settings.clusterWorker.isEmpty ? Self.workerID() : settings.clusterWorker
      let made = try ClusterIngest(
        ports: ports, worker: id, leaseSeconds: Double(settings.clusterLease), idleSeconds: Double(settings.clusterIdle), people: directory,
        mqtt: mqtt, clock: clock, log: log)
      mqtt?.cluster.withLock { $0 = made }
      cluster = made
      log("cluster", ["worker": id, "ports": ports.description])
    }
    let handler = DaemonHandler(
      people: directory, signer: signer, clock: { clock.now() }, log: log, mqttStatus: mqttStatus,
      web: WebAssets(leaflet: XDG.expandTilde(settings.webLeaflet, environment), tiles: settings.webTiles, attribution: settings.webAttribution,
        demo: tuning.demo),
      secureCookies: settings.serverURL.hasPrefix("https://"), cluster: cluster)
    let port: Int
    do {
      port = try server.start(handler)
    } catch {
      directory.byName.values.forEach { $0.store.close() }
      throw error
    }
    var gps: LocalIngest?
    if !settings.gpsdHost.isEmpty {
      let opened = Result { try directory.person(settings.gpsdPerson) }
      guard case .success(let found) = opened, let owner = found else {
        server.stop()
        directory.byName.values.forEach { $0.store.close() }
        if case .failure(let error) = opened { throw error }
        throw DaemonError("gpsd.person '\(settings.gpsdPerson)' is not one of the people in the config (\(directory.members.keys.sorted().joined(separator: ", ")))")
      }
      let source = try registry.port("gpsd.source", settings.gpsdSource, in: registry.sources).make(
        LocalSourceInput(host: settings.gpsdHost, port: settings.gpsdPort, clock: clock) { message in log("gpsd", ["detail": message]) })
      gps = LocalIngest(source: source, person: owner, log: log)
    }
    mqtt?.startRetrying()
    cluster?.start()
    base.set(settings.serverURL.isEmpty ? "http://\(listen.address == "0.0.0.0" ? "127.0.0.1" : listen.address):\(port)" : settings.serverURL)
    let statusPath = DaemonStatus.path(store: settings.store, environment: environment)
    // A restart sweeps at once (a removed person's last fix goes); then every ten minutes.
    let names = Set(settings.people.keys)
    let sweep: @Sendable () -> Void = {
      do { try retention.sweep(people: names) } catch { log("retention", ["detail": "\(error)"]) }
    }
    sweep()
    let round = TickRound()
    let ticker = Ticker(label: "whilehere.ticker", interval: TickRound.interval) { [mqtt] in
      let (slice, endsRound) = round.advance()
      let people = directory.byName
      for person in people.values where person.tickSlice == slice { person.tick() }
      mqtt?.flush()
      guard endsRound else { return }
      if retention.tickIsSweep(every: 120) { sweep() }
      analytics.flush()
      if let statusPath { try? Self.status(of: Array(people.values), listening: base.value, running: true, now: clock.now()).write(to: statusPath) }
    }
    // With manual ticks the caller lets time pass (`tick()`): the timer never starts.
    if !tuning.manualTicks { ticker.start() }
    // The CLI on this machine finds the daemon here and goes through it (LocalDaemon).
    var localPath: String?
    if let localToken = directory.localToken, let path = LocalDaemon.path(store: settings.store, environment: environment),
      listen.address == "0.0.0.0" || listen.address.hasPrefix("127.")
    {
      let address = listen.address == "0.0.0.0" ? "127.0.0.1" : listen.address
      try? LocalDaemon(pid: getpid(), url: "http://\(address):\(port)", token: localToken).write(to: path)
      localPath = path
    }
    let host = DaemonHost(
      port: port, baseURL: base.value, people: directory, server: server, ticker: ticker, mqtt: mqtt, cluster: cluster, handler: handler, log: log,
      clock: clock, analytics: analytics, statusPath: statusPath, sweepFixes: sweep, localPath: localPath)
    if let statusPath { try? Self.status(of: Array(directory.byName.values), listening: base.value, running: true, now: clock.now()).write(to: statusPath) }
    if let gps {
      try gps.start()
      host.running.withLock { $0.locals.append(gps) }
    }
    return host
  }

  /// Feeds a JSON-lines file (or standard input, "-") to one person as if
  /// their device reported it; returns a wait that blocks until the last
  /// line was handled and queued deliveries went out.
  public func replay(path: String, person name: String, restamp: Bool, clock: any WallClock) throws -> @Sendable () -> Void {
    guard let person = try people.person(name) else {
      throw DaemonError("--person '\(name)' is not one of the people in the config (\(people.members.keys.sorted().joined(separator: ", ")))")
    }
    let log = log
    let source = ReplaySource(path: path, restamp: restamp, clock: clock) { message in log("replay", ["detail": message]) }
    let ingest = LocalIngest(source: source, person: person, log: log)
    try ingest.start()
    running.withLock { $0.locals.append(ingest) }
    return {
      source.waitUntilFinished()
      for queue in person.queues { _ = queue.drain() }
    }
  }

  /// Lets time pass when the host was started with `manualTicks`: sessions
  /// and snoozes move on, and MQTT phones get what changed.
  public func tick() {
    people.byName.values.forEach { $0.tick() }
    mqtt?.flush()
  }

  /// Runs the location-retention sweep now (it also runs every ten minutes).
  public func sweepLocationHistory() { sweepFixes() }

  /// Writes operations straight into a person's store and replans, for
  /// tools that load thousands of tasks at once (the simulator).
  public func seed(_ operations: [StoreOperation], for name: String) throws {
    guard let person = try people.person(name) else {
      throw DaemonError("'\(name)' is not one of the people in the config (\(people.members.keys.sorted().joined(separator: ", ")))")
    }
    try person.store.append(operations)
    person.tasksChanged()
  }

  /// A person's engine, for tools that set up their data (the live demo).
  public func engine(for name: String) -> Engine? { (try? people.person(name))??.engine }

  /// A request as if it came over the network (a simulated phone in the
  /// same process): the same routing, checks and answers.
  public func receive(_ request: HTTPRequest) -> HTTPResponse { handler.handle(request) }

  /// Whether reports also arrive over MQTT.
  public var listensToMQTT: Bool { mqtt != nil }

  init(
    port: Int, baseURL: String, people: People, server: any HTTPServing, ticker: Ticker, mqtt: MQTTIngest?, cluster: ClusterIngest?,
    handler: DaemonHandler, log: DaemonLog, clock: any WallClock, analytics: any AnalyticsSink, statusPath: String?,
    sweepFixes: @escaping @Sendable () -> Void, localPath: String?
  ) {
    self.analytics = analytics
    self.port = port
    self.baseURL = baseURL
    self.people = people
    self.server = server
    self.ticker = ticker
    self.mqtt = mqtt
    self.cluster = cluster
    self.handler = handler
    self.log = log
    self.clock = clock
    self.statusPath = statusPath
    self.sweepFixes = sweepFixes
    self.localPath = localPath
  }

  /// Everyone in the config (a cluster worker opens only some).
  public var peopleCount: Int { people.members.count }

  /// A cluster worker's id when none is configured: the host and process.
  static func workerID() -> String {
    let host = ProcessInfo.processInfo.hostName.unicodeScalars.map { $0.isASCII && CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" }
    return String(String(host).prefix(48)) + "-\(getpid())"
  }

  /// In a cluster: the partitions this worker holds now (empty otherwise).
  public var clusterPartitions: Set<Int> { cluster?.owner.held ?? [] }

  /// In a cluster: reports this worker applied since it started.
  public var clusterApplied: Int { cluster?.applied.withLock { $0 } ?? 0 }

  /// Stops taking requests (running ones finish), gives queued deliveries
  /// a few seconds, and closes every store.
  public func stop(drainSeconds: TimeInterval = 5) {
    let first = running.withLock { running in
      defer { running.stopped = true }
      return !running.stopped
    }
    guard first else { return }
    server.stop()
    mqtt?.stop()
    // After the fronts: what they queued is applied here or by the others.
    cluster?.stop()
    analytics.flush()
    for local in running.withLock({ $0.locals }) { local.stop() }
    ticker.cancel()
    for person in people.byName.values { person.close(drainSeconds: drainSeconds, log: log) }
    if let localPath { unlink(localPath) }
    if let statusPath {
      try? Self.status(of: Array(people.byName.values), listening: baseURL, running: false, now: clock.now()).write(to: statusPath)
    }
  }

  /// People whose sinks delivered, retried or failed nothing yet are left
  /// out: with 10,000 people the whole list took 80–100 ms a round to write.
  static func status(of people: [Person], listening: String, running: Bool, now: Date) -> DaemonStatus {
    var deliveries: [String: DaemonStatus.Deliveries] = [:]
    for person in people {
      let statuses = person.queues.map(\.status)
      let counts = DaemonStatus.Deliveries(
        delivered: statuses.map(\.delivered).reduce(0, +), retrying: statuses.map(\.retrying).reduce(0, +),
        failed: statuses.map(\.failed).reduce(0, +), lastError: statuses.compactMap(\.lastError).last)
      if counts.delivered + counts.retrying + counts.failed > 0 || counts.lastError != nil { deliveries[person.name] = counts }
    }
    return DaemonStatus(pid: getpid(), updatedAt: now, listening: listening, running: running, deliveries: deliveries)
  }

  /// The answer links' base, settable once the port is known.
  final class BaseURL: Sendable {
    private let text: Locked<String>
    init(_ text: String) { self.text = Locked(text) }
    var value: String { text.withLock { $0 } }
    func set(_ value: String) { text.withLock { $0 = value } }
  }
}
