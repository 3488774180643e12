// swift-tools-version: 6.1
import PackageDescription

// libFuzzer harnesses, one executable each, in a package of their own:
// `--sanitize fuzzer` applies to every executable in a build graph, and the
// product's executables must not be built that way (scripts/fuzz.sh).

// A path dependency's identity is its directory's name, whatever the clone is called.
let root = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "main")

func harness(_ name: String) -> Target {
  .executableTarget(
    name: name, dependencies: [.product(name: "WhileHereParsing", package: root), "FuzzBounds"], path: "Sources/\(name)",
    swiftSettings: [.unsafeFlags(["-parse-as-library"])])
}

let package = Package(
  name: "WhileHereFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: "..")],
  targets: [
    // Heap and CPU bounds proportional to each input, checked around every harness.
    .target(name: "FuzzBounds", path: "Sources/FuzzBounds"),
    harness("FuzzJSON"),
    harness("FuzzOwnTracks"),
    harness("FuzzGpsd"),
    harness("FuzzImport"),
    harness("FuzzICalendar"),
    harness("FuzzSyncLine"),
    harness("FuzzBackup"),
    harness("FuzzScenario"),
    harness("FuzzStore"),
    harness("FuzzOverpass"),
    harness("FuzzPlaces"),
    harness("FuzzArguments"),
    harness("FuzzWorld"),
    harness("FuzzConfig"),
    harness("FuzzGeoJSON"),
    harness("FuzzHTTP"),
  ]
)
