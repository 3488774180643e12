import Analytics
import AnalyticsSinks
import CurlHTTP
import Domain
import Engine
import Foundation
import Gateway
import Importing
import Persistence
import Providers
import RemoteStore
import Sodium
import Sync

/// A wired program: the resolved configuration, the providers it chose, and
/// the engine over them. Built by `Runtime.boot`; `shutdown()` releases the store.
public final class Runtime: Sendable {
  public let config: ResolvedConfig
  public let store: any OperationStore
  public let clock: any WallClock
  public let engine: Engine
  /// Every provider this runtime may build, by port and name.
  public let registry: ProviderRegistry
  let environment: [String: String]
  private let placeCache = NSLock()
  nonisolated(unsafe) private var loadedProvider: (any PlaceProvider)?

  /// Port → provider spec, for `whilehere doctor`.
  public let providers: [(port: String, provider: String, source: String)]

  init(
    config: ResolvedConfig, store: any OperationStore, clock: any WallClock, ids: any IDGenerator, registry: ProviderRegistry,
    environment: [String: String]
  ) {
    self.config = config
    self.registry = registry
    self.environment = environment
    self.store = store
    self.clock = clock
    let settings = config.settings
    let radii = RadiusPolicy(
      minimum: settings.radiusMinimum, maximum: settings.radiusMaximum, defaultRadius: settings.radiusDefault)
    self.engine = Engine(context: EngineContext(store: store, clock: clock, ids: ids, radii: radii, timeZone: Self.timeZone(environment)))
    self.providers = [
      ("store", settings.store, settings.sources["store"] ?? ""),
      ("clock", settings.clock, settings.sources["clock"] ?? ""),
      ("ids", settings.ids, settings.sources["ids"] ?? ""),
      ("places", settings.places, settings.sources["places"] ?? ""),
    ]
  }

  /// Loads configuration and wires the providers it names.
  public static func boot(_ options: LaunchOptions, registry: ProviderRegistry = .standard) throws -> Runtime {
    try wire(ConfigLoader.load(options), environment: options.environment, registry: registry)
  }

  public static func wire(
    _ config: ResolvedConfig, environment: [String: String], registry: ProviderRegistry = .standard
  ) throws -> Runtime {
    let settings = config.settings
    // Clock and ids first: they cannot lock anything, so a typo there is
    // reported before the store is opened.
    let clock = try registry.make(
      "clock", ProviderSpec(settings.clock), from: registry.clocks, environment: environment, clock: SystemClock())
    let ids = try registry.make("ids", ProviderSpec(settings.ids), from: registry.ids, environment: environment, clock: clock)
    let store: any OperationStore
    if config.program == .cli, let daemon = LocalDaemon.running(store: settings.store, environment: environment),
      let person = LocalDaemon.person(people: settings.people.keys.sorted(), environment: environment), let url = URL(string: daemon.url)
    {
      // whilehered holds this store and never lets go: go through it, as that person.
      store = try RemoteOperationStore(url: url, user: person, password: daemon.token, client: CurlHTTPClient())
    } else {
      store = try registry.make(
        "store", ProviderSpec(settings.store), from: registry.stores, environment: environment, clock: clock,
        shared: config.program == .cli, lazily: config.program == .cli)
    }
    // A place provider name is checked now, though its data loads on first use.
    guard registry.places[ProviderSpec(settings.places).name] != nil else {
      store.close()
      throw ConfigError.unknownProvider(port: "places", name: ProviderSpec(settings.places).name, known: registry.places.keys.sorted())
    }
    return Runtime(config: config, store: store, clock: clock, ids: ids, registry: registry, environment: environment)
  }

  /// Suggestions over the configured place provider, loaded on first use
  /// (most commands never need it).
  public func suggestions() throws -> SuggestionService {
    try suggestions(context: engine.context)
  }

  /// Suggestions that save chosen places into another store (one of the daemon's people).
  public func suggestions(context: EngineContext) throws -> SuggestionService {
    let settings = config.settings
    let keywords = settings.keywords.isEmpty
      ? KeywordCategories.builtIn : try KeywordCategories.load(file: XDG.expandTilde(settings.keywords, environment))
    return SuggestionService(context: context, suggester: Suggester(provider: try placeProvider(), keywords: keywords))
  }

  /// Imports over the configured place provider.
  public func imports() throws -> ImportService {
    try imports(context: engine.context)
  }

  /// Imports into another store (one of the daemon's people).
  public func imports(context: EngineContext) throws -> ImportService {
    ImportService(context: context, matcher: PlaceMatcher(provider: try placeProvider()))
  }

  public func refresher() throws -> RefreshService {
    RefreshService(context: engine.context, provider: try placeProvider())
  }

  /// The configured place provider, loaded once on first use.
  public func placeProvider() throws -> any PlaceProvider {
    try placeCache.withLock {
      if let loadedProvider { return loadedProvider }
      let provider = try registry.make("places", ProviderSpec(config.settings.places), from: registry.places, environment: environment, clock: clock)
      loadedProvider = provider
      return provider
    }
  }

  /// The usage sink for a program: the configured sinks behind the
  /// person's consent (the CLI) or the operator's switch (the daemon).
  public func analytics(for program: Program) throws -> any AnalyticsSink {
    let sinks = try config.settings.analyticsSinks.map { spec -> any AnalyticsSink in
      try registry.make("analytics", ProviderSpec(spec), from: registry.analytics, environment: environment, clock: clock)
    }
    let sink: any AnalyticsSink = sinks.count == 1 ? sinks[0] : MultiplexAnalytics(sinks)
    let variables = environment
    let daemonOn = config.settings.analyticsDaemon
    return ConsentGate(sink) { program == .daemon ? daemonOn : AnalyticsConsent.load(variables) == .allowed }
  }

  /// Sync and backup over this runtime's store.
  public func syncService() -> SyncService { SyncService(context: engine.context) }

  /// The transports to sync with: the given specs, else the config's `sync`.
  public func syncTransports(_ specs: [String]) throws -> [any SyncTransport] {
    let chosen = specs.isEmpty ? config.settings.sync : specs
    guard !chosen.isEmpty else {
      throw ConfigError.invalidValue(source: "sync", key: "sync", value: "", allowed: "a place to sync with: --via folder:PATH or server:URL, or \"sync\" in the config")
    }
    return try chosen.map { try registry.syncTransport($0, environment: environment) }
  }

  /// A person's own store: the daemon keeps people apart by giving each
  /// one theirs. `file:DIR` becomes `DIR/people/NAME`; other providers make
  /// a fresh store of the same kind.
  public func openPersonStore(_ name: String) throws -> any OperationStore {
    guard PersonSettings.isValidName(name) else {
      throw ConfigError.invalidValue(source: "people", key: "people.\(name)", value: name, allowed: "1–32 lower-case letters, digits, - or _")
    }
    var spec = ProviderSpec(config.settings.store)
    switch registry.stores[spec.name]?.perPerson {
    case .argument(let own)?:
      guard let argument = spec.argument else { break }
      spec = ProviderSpec(spec.name + ":" + own(XDG.expandTilde(argument, environment), name))
    case .unsupported?:
      throw ConfigError.invalidValue(
        source: config.settings.sources["store"] ?? "store", key: "store", value: config.settings.store,
        allowed: "a store that can hold each person's own (" + registry.stores.filter { if case .unsupported = $0.value.perPerson { false } else { true } }.keys.sorted().joined(separator: ", ") + ")")
    case .separate?, nil:
      break
    }
    return try registry.make("store", spec, from: registry.stores, environment: environment, clock: clock, oneOfMany: true)
  }

  /// Another store by its spec (`sqlite:PATH`, `file:DIR`), created with
  /// `newReplica` when new: where `store migrate` moves this one.
  public func openStore(_ spec: String, newReplica: ReplicaID) throws -> any OperationStore {
    try registry.make("store", ProviderSpec(spec), from: registry.stores, environment: environment, clock: clock, newReplica: newReplica)
  }

  /// The engine context over another store, with this runtime's clock, ids
  /// and radius limits, in `timeZone` (a person's own) or this runtime's.
  public func context(over store: any OperationStore, timeZone: TimeZone? = nil) -> EngineContext {
    EngineContext(store: store, clock: clock, ids: engine.context.ids, radii: engine.context.radii, timeZone: timeZone ?? engine.context.timeZone)
  }

  /// Local time as `TZ` in `environment` names it (`Europe/Helsinki`,
  /// `:Europe/Helsinki`, `UTC`), else the system's.
  public static func timeZone(_ environment: [String: String]) -> TimeZone {
    guard var name = environment["TZ"], !name.isEmpty else { return .current }
    if name.hasPrefix(":") { name.removeFirst() }
    return TimeZone(identifier: name) ?? TimeZone(abbreviation: name) ?? .current
  }

  /// Argon2id, for `whilehere user add` and the daemon's logins.
  public static func passwordHasher() -> any PasswordHasher { Argon2idHasher() }

  /// A new device credential: the token to show once, the form to store.
  public static func issueDeviceKey() -> (token: String, stored: String) { DeviceKey.issue() }

  public func shutdown() { store.close() }
}
