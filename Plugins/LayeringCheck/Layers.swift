/// The layering of ARCHITECTURE.md as data: which layers each layer may
/// depend on, and which folder of Modules/ holds each layer. Changing the
/// design means changing this file and Docs/Architecture.md together.
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
  /// Modules/ holds one folder per layer, each module in its layer's
  /// folder: a module's layer is where it lives, so moving a module to
  /// another layer is moving its folder (and Package.swift's path with it).
  static let folders: [String: Layer] = [
    "Base": .base,
    "Core": .domain,
    "Utilities": .utility,
    "Shims": .shim,
    "Ports": .port,
    "Adapters": .adapter,
    "UseCases": .engine,
    "Simulators": .simulation,
    "Composition": .composition,
    "FrontEnds": .frontEnd,
    "Support": .support,
  ]

  /// A target's layer from the folder it lives in; nil for a module
  /// directly under Modules/ or in a folder that is no layer.
  static func layer(name: String, path: String) -> Layer? {
    let parts = path.split(separator: "/").map(String.init)
    // Modules/LAYER/NAME: exactly one folder between Modules and the module.
    if let modules = parts.lastIndex(of: "Modules") {
      return parts.count == modules + 3 ? folders[parts[modules + 1]] : nil
    }
    if path.contains("/Apps/") { return .app }
    if path.contains("/Benchmarks/") || path.contains("/Tests/Helpers/") { return .tool }
    if path.contains("/Tests/") { return .test }
    return nil
  }
}
