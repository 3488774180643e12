// swift-tools-version: 6.1
import PackageDescription

// The graph reads as a table: ports and algorithms over Domain, adapters over
// their port, Engine over ports, Composition the only module that names
// adapters, Apps over Composition. Plugins/LayeringCheck enforces it.

/// Modules/ is grouped by layer, one folder each (Base, Core, Utilities,
/// Shims, Ports, Adapters, UseCases, Simulators, Composition, FrontEnds,
/// Support): the layering check reads a module's layer from its folder.
func module(_ layer: String, _ name: String, _ deps: [Target.Dependency] = []) -> Target {
  .target(name: name, dependencies: deps, path: "Modules/\(layer)/\(name)")
}

func app(_ name: String, _ deps: [Target.Dependency]) -> Target {
  .executableTarget(name: name, dependencies: deps, path: "Apps/\(name)")
}

func shim(_ name: String) -> Target {
  .target(name: name, dependencies: ["CLibraryLoading"], path: "Modules/Shims/\(name)")
}

func tests(_ name: String, _ deps: [Target.Dependency]) -> Target {
  .testTarget(name: name, dependencies: deps, path: "Tests/\(name)")
}

let package = Package(
  name: "WhileHere",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "whilehere", targets: ["whilehere"]),
    .executable(name: "whilehered", targets: ["whilehered"]),
    .executable(name: "whilehere-sim", targets: ["whilehere-sim"]),
    .library(name: "TestSupport", targets: ["TestSupport"]),
    // What the fuzzers in Fuzz/ (a package of their own) read outside bytes with (the daemon too, for its requests).
    .library(name: "WhileHereParsing", targets: ["Locking", "Domain", "OwnTracks", "Gpsd", "Importing", "Exchange", "Sync", "Persistence", "Geofencing", "Simulation", "FileStore", "Overpass", "OSMPlaces", "ArgumentParsing", "Composition", "Gateway", "Sodium", "Daemon"]),
    .plugin(name: "LayeringCheck", targets: ["LayeringCheck"]),
  ],
  targets: [
    // The lock every layer may take (a pthread mutex ThreadSanitizer sees).
    module("Base", "Locking"),
    // CRC-32 by carry-less multiplication, for the checksums every store file carries.
    .target(name: "CCRC32", path: "Modules/Base/CCRC32"),
    // A sine and cosine in one call, for the spatial index's load.
    .target(name: "CSinCos", path: "Modules/Base/CSinCos", linkerSettings: [.linkedLibrary("m")]),
    // Domain: value types and rules, no I/O.
    module("Core", "Domain", ["Locking", "CCRC32"]),
    // Ports and algorithms.
    module("Ports", "Persistence", ["Locking", "Domain"]),
    module("Ports", "Geofencing", ["Locking", "Domain", "CSinCos"]),
    module("Ports", "Notifications", ["Locking", "Domain"]),
    .target(
      name: "Providers", dependencies: ["Locking", "Geofencing", "Domain"], path: "Modules/Ports/Providers",
      resources: [.copy("Resources/keywords.json")]),
    module("Ports", "Sync", ["Persistence", "Domain"]),
    module("Ports", "Analytics"),
    module("Ports", "Partitions", ["Locking", "Domain"]),
    // C libraries from Debian, each loaded at the first call of one of its
    // functions (loader.c, written by scripts/make-library-loaders.py), so a
    // command that needs none of them does not map them at its start.
    .target(name: "CLibraryLoading", path: "Modules/Base/CLibraryLoading"),
    shim("CMicroHTTPD"),
    shim("CMosquitto"),
    shim("CSodium"),
    // libxcrypt's bcrypt, for the password hashes nats-server's configuration takes.
    shim("CCrypt"),
    shim("CNATS"),
    shim("CSQLite"),
    shim("CCurl"),
    // The daemon's door: HTTP, signed tokens, password hashes.
    module("Ports", "Gateway", ["Locking"]),
    // Adapters.
    module("Adapters", "MicroHTTP", ["Locking", "CMicroHTTPD", "Gateway"]),
    module("Adapters", "Sodium", ["CSodium", "Gateway"]),
    module("Adapters", "CurlHTTP", ["CCurl", "Gateway"]),
    module("Adapters", "MQTT", ["CMosquitto", "Gateway"]),
    module("Adapters", "Gpsd", ["Locking", "Geofencing", "Domain"]),
    module("Adapters", "RemoteStore", ["Locking", "Persistence", "Gateway", "Sync", "Domain"]),
    module("Adapters", "FolderSync", ["Sync", "Persistence", "Domain"]),
    module("Adapters", "Overpass", ["Providers", "Gateway", "Domain"]),
    module("Adapters", "AnalyticsSinks", ["Locking", "Analytics", "Gateway"]),
    module("Adapters", "OwnTracks", ["Locking", "Geofencing", "Domain"]),
    module("Adapters", "PushSinks", ["Locking", "Notifications", "Gateway", "Domain"]),
    module("Adapters", "FileStore", ["Locking", "Persistence", "Domain"]),
    module("Adapters", "SQLiteStore", ["Locking", "CSQLite", "Persistence", "Domain"]),
    module("Adapters", "NATSStore", ["Locking", "CNATS", "CCrypt", "Persistence", "Partitions", "Domain"]),
    // The map page whilehered serves: its files and the offline basemap.
    .target(name: "WebApp", dependencies: ["Gateway"], path: "Modules/Adapters/WebApp", resources: [.copy("Resources/web")]),
    .target(
      name: "OSMPlaces", dependencies: ["Providers", "Domain"], path: "Modules/Adapters/OSMPlaces",
      resources: [.copy("Resources/helsinki-places.geojson")]),
    // Use cases over ports.
    // Reading saved lists and matching their rows to places; open export
    // and import formats. Logic over the ports, no protocol of their own.
    .target(
      name: "Importing", dependencies: ["Locking", "Providers", "Domain"], path: "Modules/UseCases/Importing",
      resources: [.copy("Resources/place-words.json")]),
    module("UseCases", "Exchange", ["Domain"]),
    module("UseCases", "Engine", ["Locking", "Persistence", "Geofencing", "Notifications", "Providers", "Importing", "Sync", "Exchange", "Analytics", "Domain"]),
    // A deterministic world for the testing profile (grows with the arrival engine).
    module("Simulators", "Simulation", ["Locking", "Engine", "Geofencing", "Notifications", "Persistence", "Providers", "Importing", "Domain"]),
    // The only module that knows concrete adapters.
    module("Composition", "Composition", ["CurlHTTP", "Engine", "Geofencing", "Notifications", "Persistence", "FileStore", "SQLiteStore", "NATSStore", "Providers", "Importing", "OSMPlaces", "Gateway", "Sodium", "MicroHTTP", "MQTT", "Gpsd", "RemoteStore", "Sync", "FolderSync", "Analytics", "AnalyticsSinks", "Overpass", "PushSinks", "Partitions", "Domain"]),
    // The headless profile: HTTP ingest, answers, sinks, people.
    module("Composition", "Daemon", ["Locking",
      "Composition", "Engine", "Geofencing", "Notifications", "Persistence", "Gateway", "Sodium", "OwnTracks", "PushSinks",
      "Analytics", "WebApp", "Importing", "Partitions", "Domain",
    ]),
    // The daemon's real code driven by simulated OwnTracks phones (the benchmark's deployed path).
    module("Composition", "DaemonSimulation", ["Locking", "Daemon", "Simulation", "Composition", "Engine", "Gateway", "Sodium", "Geofencing", "Domain"]),
    // App-level helpers.
    module("Utilities", "ArgumentParsing"),
    module("FrontEnds", "CLI", ["Composition", "Engine", "Geofencing", "Providers", "Importing", "Persistence", "Sync", "Exchange", "Analytics", "Partitions", "Domain", "Locking", "ArgumentParsing"]),
    // Conformance kits and doubles, shipped as a library for every test target.
    module("Support", "TestSupport", ["Locking", "Partitions", "Persistence", "Notifications", "Providers", "Geofencing", "Gateway", "Sync", "Analytics", "Domain"]),

    app("whilehere", ["CLI"]),
    app("whilehered", ["CLI", "Composition", "Daemon", "DaemonSimulation", "Domain", "Analytics", "ArgumentParsing"]),
    app("whilehere-sim", ["CLI", "Composition", "Simulation", "DaemonSimulation", "Engine", "Geofencing", "Notifications", "Providers", "Domain", "ArgumentParsing"]),
    // Test helper: appends to a FileStore and reports every acknowledged write, so
    // the crash test can SIGKILL it at random moments.
    .executableTarget(name: "store-torture", dependencies: ["FileStore", "SQLiteStore", "Persistence", "Domain"], path: "Tests/Helpers/store-torture"),
    // Test helper: loads a library as the shims' loaders do (present, absent, a missing function).
    .executableTarget(name: "library-loading-helper", dependencies: ["CLibraryLoading"], path: "Tests/Helpers/library-loading-helper"),
    // Test helper: dies of a trap with the crash reporter installed.
    .executableTarget(name: "crash-helper", dependencies: ["Composition", "Analytics"], path: "Tests/Helpers/crash-helper"),
    .executableTarget(
      name: "whilehere-bench", dependencies: ["FileStore", "SQLiteStore", "NATSStore", "Persistence", "Domain"],
      path: "Benchmarks/StoreBenchmark"),

    .plugin(
      name: "LayeringCheck",
      capability: .command(
        intent: .custom(verb: "check-layering", description: "Fail on module edges that break ARCHITECTURE.md's layering")),
      path: "Plugins/LayeringCheck"),

    tests("DomainTests", ["Domain"]),
    tests("PersistenceTests", ["Persistence", "Locking", "Domain", "TestSupport"]),
    tests("FileStoreTests", ["Locking", "FileStore", "Persistence", "Domain", "TestSupport", "store-torture"]),
    tests("PartitionsTests", ["Locking", "Partitions", "Domain", "TestSupport"]),
    tests("NATSStoreTests", ["Locking", "NATSStore", "FileStore", "Persistence", "Partitions", "Domain", "MQTT", "TestSupport"]),
    tests("SQLiteStoreTests", ["SQLiteStore", "FileStore", "Sync", "Persistence", "Domain", "TestSupport", "store-torture"]),
    tests("GeofencingTests", ["Geofencing", "Domain", "TestSupport"]),
    tests("NotificationsTests", ["Notifications", "TestSupport", "Domain"]),
    tests("ProvidersTests", ["Locking", "Providers", "OSMPlaces", "Overpass", "Importing", "Gateway", "CurlHTTP", "MicroHTTP", "TestSupport", "Domain"]),
    tests("EngineTests", ["Locking", "Engine", "Persistence", "FileStore", "Geofencing", "Notifications", "Providers", "Importing", "Domain", "TestSupport"]),
    tests("CompositionTests", ["Composition", "Engine", "Persistence", "Domain"]),
    tests("SimulationTests", ["Simulation", "DaemonSimulation", "Composition", "Engine", "Geofencing", "Notifications", "Persistence", "Domain", "TestSupport"]),
    tests("DaemonTests", ["Locking", "whilehered", "FileStore", "Persistence", "Sodium", "Gateway", "MicroHTTP", "MQTT", "TestSupport", "Domain"]),
    .testTarget(
      name: "DaemonModuleTests",
      dependencies: [
        "Locking", "Daemon", "Composition", "CLI", "RemoteStore", "CurlHTTP", "Gateway", "Sodium", "Persistence", "Notifications", "Domain", "Geofencing",
        "Partitions", "MQTT", "NATSStore", "TestSupport",
      ],
      path: "Tests/DaemonModuleTests", exclude: ["Corpus"]),
    tests("GatewayTests", ["Locking", "Gateway", "CurlHTTP", "MicroHTTP", "Sodium", "MQTT", "TestSupport", "library-loading-helper"]),
    tests("OwnTracksTests", ["Locking", "OwnTracks", "Geofencing", "Domain", "TestSupport"]),
    .testTarget(
      name: "PushSinksTests", dependencies: ["Locking", "PushSinks", "Notifications", "Gateway", "CurlHTTP", "MicroHTTP", "Sodium", "TestSupport"],
      path: "Tests/PushSinksTests", exclude: ["Fixtures"]),
    tests("ExchangeTests", ["Exchange", "Engine", "Persistence", "Domain", "TestSupport"]),
    tests("AnalyticsTests", ["Locking", "Analytics", "AnalyticsSinks", "Engine", "Simulation", "Gateway", "CurlHTTP", "MicroHTTP", "Domain", "TestSupport"]),
    tests("SyncTests", ["Sync", "FolderSync", "Engine", "Persistence", "Domain", "TestSupport"]),
    tests("GpsdTests", ["Locking", "Gpsd", "Geofencing", "Domain", "TestSupport"]),
    tests("CLITests", ["Locking", "CLI", "Composition", "Partitions", "NATSStore", "Domain", "ArgumentParsing", "TestSupport", "FileStore", "Persistence", "crash-helper"]),
  ]
)

// Release builds carry Swift's runtime and Foundation inside each program
// (what `swift build --static-swift-stdlib` does): loading them as shared
// libraries took about 8 ms of every command's start. Swift modules are
// compiled for it too, so their links name the static libraries. Programs
// are linked by lld with their relative relocations packed (DT_RELR, glibc
// 2.36 and later): gold wrote 80,000 of them in 1.9 MB, which the loader
// read and applied at each start, about 1 ms of every command. Packed,
// they still wrote pointers across the data pages at each start, each page
// copied on write (`whilehere --help`: 552 page faults): `whilehere`, whose
// start is most of what a command costs, is linked at a fixed address
// instead (not position-independent: no relocations, 367 faults, 0.6 ms
// sooner a command), so its own code is not placed at
// random (ASLR) as the libraries, heap and stack still are. whilehered,
// which answers the network, and the other programs keep it.
let cTargets: Set<String> = ["CCRC32", "CSinCos", "CLibraryLoading", "library-loading-helper", "CMicroHTTPD", "CMosquitto", "CSodium", "CCrypt", "CNATS", "CSQLite", "CCurl"]
for target in package.targets where target.type == .executable || (target.type == .regular && !cTargets.contains(target.name)) {
  target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
  if target.type == .executable {
    // The CLI alone is linked at a fixed address (see above).
    let fixed = target.name == "whilehere" ? ["-Xclang-linker", "-no-pie"] : []
    target.linkerSettings =
      (target.linkerSettings ?? []) + [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] + fixed, .when(configuration: .release))]
  }
}
