/// The layering of ARCHITECTURE.md as data: each module's layer, and which
/// layers each layer may depend on. Changing the design means changing this
/// table and Docs/Architecture.md together.
enum Layer: String, CaseIterable {
  case base, domain, utility, shim, port, adapter, engine, simulation, composition, frontEnd = "front-end", app, support, tool, test

  /// Every layer may take the base (the lock); the base depends on nothing.
  var allowed: Set<Layer> { self == .base ? [] : layered.union([.base]) }

  private var layered: Set<Layer> {
    switch self {
    case .base: return []
    case .domain, .utility, .shim: return []
    case .port: return [.domain, .port]
    case .adapter: return [.domain, .port, .shim]
    case .engine: return [.domain, .port, .engine]
    case .simulation: return [.domain, .port, .engine]
    // The headless profile's wiring (Daemon) builds on the shared one.
    case .composition: return [.domain, .port, .adapter, .engine, .simulation, .composition]
    case .frontEnd: return [.domain, .port, .engine, .composition, .utility]
    case .app: return [.domain, .port, .engine, .simulation, .composition, .utility, .frontEnd]
    case .support: return [.domain, .port]
    // Test helpers run a real program's wiring (the crash helper).
    case .tool: return [.domain, .port, .adapter, .composition]
    case .test: return Set(Layer.allCases)
    }
  }
}

enum Layers {
  /// Modules/ targets by name. A new module must be placed here.
  static let modules: [String: Layer] = [
    "Locking": .base,
    "Domain": .domain,
    "CMicroHTTPD": .shim,
    "CSodium": .shim,
    "CMosquitto": .shim,
    "CSQLite": .shim,
    "CNATS": .shim,
    "NATSStore": .adapter,
    "SQLiteStore": .adapter,
    "MQTT": .adapter,
    "Gpsd": .adapter,
    "Sync": .port,
    "Exchange": .port,
    "Analytics": .port,
    "AnalyticsSinks": .adapter,
    "FolderSync": .adapter,
    "Overpass": .adapter,
    "RemoteStore": .adapter,
    "Gateway": .port,
    "MicroHTTP": .adapter,
    "Sodium": .adapter,
    "OwnTracks": .adapter,
    "PushSinks": .adapter,
    "Daemon": .composition,
    "DaemonSimulation": .composition,
    "ArgumentParsing": .utility,
    "Persistence": .port,
    "Geofencing": .port,
    "Notifications": .port,
    "Providers": .port,
    "Importing": .port,
    "OSMPlaces": .adapter,
    "FileStore": .adapter,
    "WebApp": .adapter,
    "Engine": .engine,
    "Simulation": .simulation,
    "Composition": .composition,
    "CLI": .frontEnd,
    "TestSupport": .support,
  ]

  /// Other targets by the folder they live in.
  static func layer(name: String, path: String) -> Layer? {
    if let layer = modules[name] { return layer }
    if path.contains("/Apps/") { return .app }
    if path.contains("/Benchmarks/") || path.contains("/Tests/Helpers/") { return .tool }
    if path.contains("/Tests/") { return .test }
    return nil
  }
}
