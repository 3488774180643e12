import Domain
import Engine
import Persistence

/// A wired program: the resolved configuration, the providers it chose, and
/// the engine over them. Built by `Runtime.boot`; `shutdown()` releases the store.
public final class Runtime: Sendable {
  public let config: ResolvedConfig
  public let store: any OperationStore
  public let clock: any WallClock
  public let engine: Engine
  /// Port → provider spec, for `whilehere doctor`.
  public let providers: [(port: String, provider: String, source: String)]

  init(config: ResolvedConfig, store: any OperationStore, clock: any WallClock, ids: any IDGenerator) {
    self.config = config
    self.store = store
    self.clock = clock
    let settings = config.settings
    let radii = RadiusPolicy(
      minimum: settings.radiusMinimum, maximum: settings.radiusMaximum, defaultRadius: settings.radiusDefault)
    self.engine = Engine(context: EngineContext(store: store, clock: clock, ids: ids, radii: radii))
    self.providers = [
      ("store", settings.store, settings.sources["store"] ?? ""),
      ("clock", settings.clock, settings.sources["clock"] ?? ""),
      ("ids", settings.ids, settings.sources["ids"] ?? ""),
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
    let store = try registry.make(
      "store", ProviderSpec(settings.store), from: registry.stores, environment: environment, clock: clock)
    return Runtime(config: config, store: store, clock: clock, ids: ids)
  }

  public func shutdown() { store.close() }
}
