import Composition
import Daemon
import Domain
import Engine
import Foundation
import Gateway
import Geofencing
import Locking
import Simulation
import Sodium

/// The deployed path, measured: a simulated OwnTracks app (iOS or Android,
/// over HTTP or MQTT) reports to a whilehered started in-process on the
/// same code a real deployment runs (config, routing, login, codec,
/// Person, PhoneService, the engine), with a simulated clock and the
/// daemon's 5-second ticker. Only the socket and the broker are in-process.
public struct OwnTracksStrategy: ObservableStrategy {
  public static let iOSHTTP = OwnTracksStrategy(name: "owntracks-ios-http", platform: .iOS, transport: .http)
  public static let iOSMQTT = OwnTracksStrategy(name: "owntracks-ios-mqtt", platform: .iOS, transport: .mqtt)
  public static let androidHTTP = OwnTracksStrategy(name: "owntracks-android-http", platform: .android, transport: .http)
  public static let all = [iOSHTTP, iOSMQTT, androidHTTP]

  public let name: String
  public let platform: OwnTracksApp.Platform
  public let transport: OwnTracksApp.Transport
  /// The device is listed in the person's `remoteConfiguration` and the app
  /// allows it: sessions switch it to move mode. Off: sessions only ask
  /// for a report.
  public var lever = true
  public var arrival = ArrivalConfig()

  static let person = "sim"
  static let device = "phone"
  static let password = "simulated-phone"

  public init(name: String, platform: OwnTracksApp.Platform, transport: OwnTracksApp.Transport, lever: Bool = true) {
    self.name = name
    self.platform = platform
    self.transport = transport
    self.lever = lever
  }

  public func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom) -> StrategyRun {
    run(trip: trip, world: world, places: places, random: random, inspect: nil)
  }

  /// `observe` sees each crossing the OS reported to the app and each event of the daemon's engine.
  public func run(trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom, observe: ((Int, PhoneObservation) -> Void)?) -> StrategyRun {
    run(trip: trip, world: world, places: places, random: random, inspect: nil, observe: observe)
  }

  /// `inspect` sees the app as the day ended (its mode, what it obeyed).
  public func run(
    trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom, inspect: ((OwnTracksApp) -> Void)?,
    observe: ((Int, PhoneObservation) -> Void)? = nil
  ) -> StrategyRun {
    do {
      return try simulate(trip: trip, world: world, places: places, random: random, inspect: inspect, observe: observe)
    } catch {
      var run = StrategyRun()
      run.notes["the daemon failed: \(error)"] = 1
      return run
    }
  }

  /// Events the daemon's engine produced, with the second they came in.
  final class Observed: Sendable {
    private let state = Locked<(second: Int, events: [(Int, ArrivalEvent)])>((0, []))
    func at(second: Int) { state.withLock { $0.second = second } }
    func add(_ more: [ArrivalEvent]) { state.withLock { state in state.events += more.map { (state.second, $0) } } }
    func take() -> [(Int, ArrivalEvent)] {
      state.withLock { state in
        defer { state.events = [] }
        return state.events
      }
    }
  }

  func simulate(
    trip: Trip, world: WorldConfig, places: PlaceSet, random: SimRandom, inspect: ((OwnTracksApp) -> Void)?,
    observe: ((Int, PhoneObservation) -> Void)?
  ) throws -> StrategyRun {
    var random = random
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("whilehere-sim-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: directory) }
    let hasher = Argon2idHasher(operations: 1, memoryBytes: 8192)
    let configPath = directory.appendingPathComponent("config.json").path
    try config(start: trip.start, hash: try hasher.hash(Self.password)).write(to: URL(fileURLWithPath: configPath))
    // The daemon's own code with its sockets swapped for in-process ports,
    // chosen by settings as a deployment chooses them.
    let server = DirectHTTPServerSlot()
    let broker = LoopbackBroker()
    var (registry, overrides) = ProviderRegistry.standard.inProcess(server: server, hasher: hasher)
    registry.brokers["loopback"] = PortFactory(summary: "the simulated app's broker") { _ in broker }
    if transport == .mqtt {
      overrides["mqtt.host"] = "loopback"
      overrides["mqtt.client"] = "loopback"
    }
    let runtime = try Runtime.boot(LaunchOptions(program: .headless, configPath: configPath, overrides: overrides, environment: [:]), registry: registry)
    defer { runtime.shutdown() }
    guard let clock = runtime.clock as? ManualClock else { throw DaemonError("the simulated daemon needs a manual clock") }

    let observed = Observed()
    var tuning = DaemonHost.Tuning()
    tuning.retryDelay = 0
    tuning.manualTicks = true
    tuning.observe = { _, events in observed.add(events) }
    let host = try DaemonHost.start(runtime: runtime, log: DaemonLog { _ in }, tuning: tuning)
    defer { host.stop(drainSeconds: 0) }
    try host.seed(SeedStrategy.shipped.tasks(places, at: trip.start).map { .put(.task($0)) }, for: Self.person)

    let app = OwnTracksApp(
      platform: platform, transport: transport, remoteConfiguration: true, world: world, duration: trip.positions.count, random: random.fork(10))
    app.knownNetworks = trip.stays
    app.movingActivity =
      switch trip.mode {
      case .walking: "walking"
      case .cycling: "cycling"
      case .driving: "automotive"
      }
    let topic = "owntracks/\(Self.person)/\(Self.device)"
    // What the daemon published, handed to the app as soon as the call that published it returns.
    func deliverPublished() {
      for (published, payload) in broker.takePublished() where published == topic + "/cmd" { app.receive(payload, at: clock.now()) }
    }
    let authorization = "Basic " + Data("\(Self.person):\(Self.password)".utf8).base64EncodedString()
    var result = StrategyRun()
    for (second, position) in trip.positions.enumerated() {
      let now = trip.time(second)
      clock.set(now)
      observed.at(second: second)
      let sent = app.step(position: position, at: now, battery: app.battery(world: world))
      for crossing in sent.compactMap(\.crossing) { observe?(second, .region(crossing)) }
      for message in sent {
        switch transport {
        case .mqtt:
          broker.phonePublished(topic: topic + message.topicSuffix, payload: message.body)
          deliverPublished()
        case .http:
          let request = HTTPRequest(
            method: "POST", path: "/owntracks",
            headers: ["Authorization": authorization, "Content-Type": "application/json", "X-Limit-U": Self.person, "X-Limit-D": Self.device],
            body: message.body)
          guard let response = server.server?.send(request), (200..<300).contains(response.status) else {
            result.notes["http refused", default: 0] += 1
            continue
          }
          app.receive(response.body, at: now)
        }
      }
      // The daemon's ticker runs every 5 s.
      if second % 5 == 0 { host.tick() }
      deliverPublished()
      // What the phone sent this second set off what fired in it; a crossing first.
      let source = sent.map(\.kind).max().map(\.rawValue) ?? "the daemon's ticker (no report)"
      for (at, event) in observed.take() {
        observe?(at, .engine(event))
        let before = result.fires.count
        result.count(event, at: at)
        result.fireSources += Array(repeating: source, count: result.fires.count - before)
      }
    }
    app.record(into: &result)
    inspect?(app)
    return result
  }

  /// The daemon's config for one simulated person: memory store, the
  /// simulated clock, one device allowed to be reconfigured when `lever`.
  func config(start: Date, hash: String) throws -> Data {
    var person: [String: JSONValue] = [
      "password": .string(hash), "devices": .array([.string(Self.device)]), "capacity": .number(platform == .android ? 100 : 20),
    ]
    if lever { person["remoteConfiguration"] = .array([.string(Self.device)]) }
    let config = JSONValue.object([
      "store": .string("memory"), "clock": .string("manual:" + ISO8601DateFormatter().string(from: start)), "ids": .string("sequential"),
      "server": .object(["listen": .string("127.0.0.1:0"), "url": .string("http://whilehere.invalid")]), "notify": .array([]),
      "arrival": try JSONValue(encoding: arrival), "people": .object([Self.person: .object(person)]),
    ])
    return Data(config.compactText.utf8)
  }
}
