import Analytics
import AnalyticsSinks
import CurlHTTP
import Domain
import FileStore
import FolderSync
import Foundation
import Gateway
import Geofencing
import NATSStore
import OSMPlaces
import Overpass
import Persistence
import Providers
import RemoteStore
import SQLiteStore
import Sync

/// Maps provider names in config to factories, per port. The only place
/// that names concrete adapters; an unknown name is an error listing the
/// known ones. Every port a configuration can choose has its table here.
public struct ProviderRegistry: Sendable {
  public struct Factory<Product>: Sendable {
    public let summary: String
    /// How one of several people gets their own (whilehered's per-person
    /// stores), so nothing outside the adapter's entry knows what kind of
    /// thing it is.
    public let perPerson: PerPerson
    /// The folder a store on this machine keeps beside itself (the
    /// daemon's status, its signing key, the CLI's way to it), from the
    /// argument; nil for stores that are not on this machine's disk.
    public let home: (@Sendable (_ argument: String) -> String)?
    public let make: @Sendable (ProviderInput) throws -> Product

    public init(
      summary: String, perPerson: PerPerson = .unsupported, home: (@Sendable (_ argument: String) -> String)? = nil,
      make: @escaping @Sendable (ProviderInput) throws -> Product
    ) {
      self.summary = summary
      self.perPerson = perPerson
      self.home = home
      self.make = make
    }
  }

  public enum PerPerson: Sendable {
    /// Each `make` is already a separate one (in memory).
    case separate
    /// The argument that names person NAME's own, from the configured one.
    case argument(@Sendable (_ argument: String, _ person: String) -> String)
    /// One for everybody is all it can be (a remote store): refused for people.
    case unsupported
  }

  /// What a factory gets: the text after the name's colon, the environment,
  /// and the clock already chosen (stores stamp with it).
  public struct ProviderInput: Sendable {
    public let argument: String?
    public let environment: [String: String]
    public let clock: any WallClock
    /// Share a file store with other processes instead of holding it (the CLI).
    public var shared = false
    /// Read the whole state only when first needed, so a command that
    /// names a few entities reads only those (the CLI; `sqlite:`).
    public var lazily = false
    /// One of many stores open at once, written rarely (whilehered's
    /// per-person stores): hold as few files open as possible.
    public var oneOfMany = false
    /// The replica id a store created now takes (`store migrate` moves a
    /// store's id with its records); nil: a new random one.
    public var newReplica: ReplicaID?
  }

  public var stores: [String: Factory<any OperationStore>] = [:]
  public var clocks: [String: Factory<any WallClock>] = [:]
  public var ids: [String: Factory<any IDGenerator>] = [:]
  public var places: [String: Factory<any PlaceProvider>] = [:]
  public var syncs: [String: Factory<any SyncTransport>] = [:]
  /// Where usage counts go (`analytics.sink`), once allowed.
  public var analytics: [String: Factory<any AnalyticsSink>] = [:]
  /// Notification sinks (`notify`), each with its check.
  public var notify: [String: NotifyFactory] = [:]
  /// whilehered's HTTP server (`server.http`).
  public var servers: [String: PortFactory<HTTPServerOptions, any HTTPServing>] = [:]
  /// What hashes passwords (`whilehere user add`) and checks them (whilehered) (`server.hasher`).
  public var hashers: [String: PortFactory<Void, any PasswordHasher>] = [:]
  /// What signs answer links and web sessions (`server.signer`).
  public var signers: [String: SignerFactory] = [:]
  /// The MQTT client whilehered meets OwnTracks phones through (`mqtt.client`).
  public var brokers: [String: PortFactory<Settings, any MessageBroker>] = [:]
  /// Location sources on this machine (`gpsd.source`).
  public var sources: [String: PortFactory<LocalSourceInput, any LocationSource>] = [:]

  public static let standard: ProviderRegistry = {
    var registry = ProviderRegistry()
    registry.stores["memory"] = Factory(summary: "in memory, lost on exit", perPerson: .separate) { input in
      InMemoryOperationStore(replica: ReplicaID.random(), clock: input.clock)
    }
    registry.stores["file"] = Factory(
      summary: "file:DIRECTORY, the durable operation log", perPerson: .argument { directory, person in directory + "/people/" + person },
      home: { directory in directory }
    ) { input in
      guard let argument = input.argument else {
        throw ConfigError.invalidValue(source: "store", key: "store", value: "file", allowed: "file:DIRECTORY")
      }
      let directory = XDG.expandTilde(argument, input.environment)
      // Read in parts, a store reads its log whole at every command: kept under 64 KiB (Docs/Benchmarks.md).
      let options = FileStoreOptions(
        access: input.shared ? .shared : .exclusive, lockWait: try lockWait(input.environment), keepLogOpen: !input.oneOfMany,
        compactLogPastBytes: input.lazily ? 64 << 10 : nil)
      let replica = input.newReplica ?? ReplicaID.random()
      let clock = input.clock
      let open = { @Sendable in try FileOperationStore(directory: directory, newReplica: replica, clock: clock, options: options) }
      return input.lazily ? LazyFileStore(directory: directory, options: options, clock: clock, make: open) : try open()
    }
    registry.stores["sqlite"] = Factory(
      summary: "sqlite:PATH, the operation log in one SQLite file (WAL, synchronous=FULL)",
      perPerson: .argument { path, person in SQLitePaths.person(person, beside: path) },
      home: { path in SQLitePaths.home(of: path) }
    ) { input in
      guard let argument = input.argument, !argument.isEmpty else {
        throw ConfigError.invalidValue(source: "store", key: "store", value: "sqlite", allowed: "sqlite:PATH")
      }
      return try SQLiteOperationStore(
        path: XDG.expandTilde(argument, input.environment), newReplica: input.newReplica, clock: input.clock, lazily: input.lazily)
    }
    registry.stores["nats"] = Factory(
      summary: "nats:nats://HOST:4222[;stream=NAME][;log=NAME][;replicas=N], the operation log on a NATS JetStream stream",
      // An argument that does not parse is passed on as it is, for make to refuse clearly.
      perPerson: .argument { argument, person in (try? NATSLocation(argument))?.with(log: person).argument ?? argument }
    ) { input in
      guard let argument = input.argument else {
        throw ConfigError.invalidValue(source: "store", key: "store", value: "nats", allowed: "nats:nats://HOST:4222[;stream=NAME][;log=NAME][;replicas=N]")
      }
      let location: NATSLocation
      do {
        location = try NATSLocation(argument)
      } catch {
        throw ConfigError.invalidValue(source: "store", key: "store", value: argument, allowed: "nats:nats://HOST:4222[;stream=NAME][;log=NAME][;replicas=N] (\(error))")
      }
      return try NATSOperationStore(location, newReplica: input.newReplica, clock: input.clock)
    }
    registry.stores["remote"] = Factory(summary: "remote:URL, a person's store held by whilehered (user and password from the URL, WHILEHERE_USER/WHILEHERE_PASSWORD, or asked)") { input in
      try RemoteLogin.open(input.argument, environment: input.environment)
    }
    registry.syncs["folder"] = Factory(summary: "folder:PATH, a directory a file-sync tool keeps in step (each replica writes its own segment files)") { input in
      guard let argument = input.argument else {
        throw ConfigError.invalidValue(source: "sync", key: "sync", value: "folder", allowed: "folder:PATH")
      }
      return FolderSyncTransport(path: XDG.expandTilde(argument, input.environment))
    }
    registry.syncs["server"] = Factory(summary: "server:URL, whilehered as a sync hub for one person (user and password as for remote:)") { input in
      let login = try RemoteLogin.credentials(input.argument, environment: input.environment, key: "sync")
      return ServerSyncTransport(url: login.url, user: login.user, password: login.password, client: CurlHTTPClient())
    }
    registerSinks(&registry)
    registerDaemonPorts(&registry)
    registry.analytics["noop"] = Factory(summary: "nothing recorded") { _ in NoopAnalytics() }
    registry.analytics["jsonl"] = Factory(summary: "jsonl:PATH, one JSON line per event") { input in
      guard let path = input.argument, !path.isEmpty else {
        throw ConfigError.invalidValue(source: "analytics", key: "analytics.sink", value: "jsonl", allowed: "jsonl:PATH")
      }
      return JSONLinesAnalytics(path: XDG.expandTilde(path, input.environment))
    }
    for scheme in ["http", "https"] {
      registry.analytics[scheme] = Factory(summary: "\(scheme):URL, events posted in batches") { input in
        guard let rest = input.argument, let url = URL(string: scheme + ":" + rest), url.host != nil else {
          throw ConfigError.invalidValue(
            source: "analytics", key: "analytics.sink", value: scheme + ":" + (input.argument ?? ""), allowed: "\(scheme)://HOST/PATH")
        }
        return HTTPAnalytics(url: url, client: CurlHTTPClient())
      }
    }
    registry.clocks["system"] = Factory(summary: "the machine's clock") { _ in SystemClock() }
    registry.clocks["manual"] = Factory(summary: "manual[:ISO-8601 start], moved only by the program") { input in
      guard let argument = input.argument else { return ManualClock() }
      guard let start = ISO8601DateFormatter().date(from: argument) else {
        throw ConfigError.invalidValue(source: "clock", key: "clock", value: argument, allowed: "an ISO-8601 time such as 2026-06-01T12:00:00Z")
      }
      return ManualClock(start)
    }
    registry.ids["random"] = Factory(summary: "random 12-hex-digit ids") { _ in RandomIDGenerator() }
    registry.ids["sequential"] = Factory(summary: "sequential[:PREFIX] ids, for repeatable runs") { input in
      SequentialIDGenerator(prefix: input.argument ?? "id")
    }
    registry.places["osm-geojson"] = Factory(summary: "osm-geojson[:PATH], GeoJSON points; without a path the embedded central-Helsinki places") { input in
      try GeoJSONPlaceProvider.load(path: input.argument.map { XDG.expandTilde($0, input.environment) })
    }
    registry.places["overpass"] = Factory(summary: "overpass:URL, an Overpass API server (e.g. overpass:https://overpass-api.de/api/interpreter), asked per question") { input in
      guard let argument = input.argument, let url = URL(string: argument), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
        throw ConfigError.invalidValue(source: "places", key: "places", value: "overpass:\(input.argument ?? "")", allowed: "overpass:https://HOST/api/interpreter")
      }
      // Asked over the network: a short memory answers small moves.
      return CachingPlaceProvider(OverpassPlaceProvider(endpoint: url, client: CurlHTTPClient()))
    }
    registry.places["memory"] = Factory(summary: "no places (for tests)") { _ in InMemoryPlaceProvider(places: []) }
    return registry
  }()

  /// Seconds a write waits for another process's write (`WHILEHERE_STORE_WAIT`, default 10).
  static func lockWait(_ environment: [String: String]) throws -> TimeInterval {
    guard let text = environment["WHILEHERE_STORE_WAIT"] else { return 10 }
    guard let seconds = Double(text), seconds.isFinite, (0...3600).contains(seconds) else {
      throw ConfigError.invalidValue(source: "environment", key: "WHILEHERE_STORE_WAIT", value: text, allowed: "seconds from 0 to 3600")
    }
    return seconds
  }

  /// A place provider by its config spec (`osm-geojson:PATH`), for tools
  /// that need one without a whole runtime.
  public func placeProvider(_ spec: String, environment: [String: String]) throws -> any PlaceProvider {
    try make("places", ProviderSpec(spec), from: places, environment: environment, clock: SystemClock())
  }

  /// A sync transport by its spec (`folder:PATH`, `server:URL`).
  public func syncTransport(_ spec: String, environment: [String: String]) throws -> any SyncTransport {
    try make("sync", ProviderSpec(spec), from: syncs, environment: environment, clock: SystemClock())
  }

  /// The folder the configured store keeps its side files in, expanded;
  /// nil when the store has none on this machine (memory, remote).
  public static func storeHome(_ store: String, environment: [String: String]) -> String? {
    let spec = ProviderSpec(store)
    guard let argument = spec.argument, let home = standard.stores[spec.name]?.home else { return nil }
    return home(XDG.expandTilde(argument, environment))
  }

  func make<Product>(
    _ port: String, _ spec: ProviderSpec, from table: [String: Factory<Product>], environment: [String: String],
    clock: any WallClock, shared: Bool = false, lazily: Bool = false, oneOfMany: Bool = false, newReplica: ReplicaID? = nil
  ) throws -> Product {
    guard let factory = table[spec.name] else {
      throw ConfigError.unknownProvider(port: port, name: spec.name, known: table.keys.sorted())
    }
    var input = ProviderInput(argument: spec.argument, environment: environment, clock: clock)
    input.shared = shared
    input.lazily = lazily
    input.oneOfMany = oneOfMany
    input.newReplica = newReplica
    return try factory.make(input)
  }
}
