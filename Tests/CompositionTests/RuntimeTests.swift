import Composition
import Domain
import Foundation
import Persistence
import Testing

@Suite struct RuntimeTests {
  @Test func anUnknownProviderListsTheKnownOnes() {
    let options = LaunchOptions(program: .cli, overrides: ["store": "mongodb:/tmp/x"], environment: ["HOME": "/tmp"])
    let error = #expect(throws: ConfigError.self) { try Runtime.boot(options) }
    #expect(error == .unknownProvider(port: "store", name: "mongodb", known: ["file", "memory", "nats", "remote", "sqlite"]))
  }

  @Test func aMistypedProviderGetsASuggestion() {
    let options = LaunchOptions(program: .cli, overrides: ["store": "memroy"], environment: ["HOME": "/tmp"])
    let error = #expect(throws: ConfigError.self) { try Runtime.boot(options) }
    #expect(error?.description.contains("did you mean 'memory'?") == true)
  }

  @Test func theTestingProfileWiresAnInMemoryEngineWithAManualClock() throws {
    let runtime = try Runtime.boot(LaunchOptions(program: .testing, environment: [:]))
    defer { runtime.shutdown() }
    #expect(runtime.store.describe().kind == "memory")
    let before = runtime.clock.now()
    let task = try runtime.engine.tasks.add(
      title: "Milk", locations: [.init(target: .coordinate(try Coordinate(latitude: 60, longitude: 24)))])
    #expect(task.id.rawValue == "id0001")
    #expect(runtime.clock.now() == before)
    #expect(runtime.store.state().tasks.count == 1)
  }

  @Test func theFileStoreIsOpenedWhereConfigSays() throws {
    let directory = NSTemporaryDirectory() + "whilehere-runtime-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let runtime = try Runtime.boot(LaunchOptions(program: .headless, overrides: ["store": "file:" + directory], environment: [:]))
    #expect(runtime.store.describe().location == directory)
    // A second holder is refused (after its wait) while the first holds it…
    #expect(throws: StoreError.self) {
      try Runtime.boot(
        LaunchOptions(program: .headless, overrides: ["store": "file:" + directory], environment: ["WHILEHERE_STORE_WAIT": "0"]))
    }
    // …while the CLI shares it: it reads without the writer lock.
    let cli = try Runtime.boot(LaunchOptions(program: .cli, overrides: ["store": "file:" + directory], environment: [:]))
    #expect(cli.store.describe().details.contains { $0.0 == "access" && $0.1.hasPrefix("shared") })
    cli.shutdown()
    runtime.shutdown()
  }
}

/// Docs/Configuration.md names every key and environment variable the loader knows.
@Suite struct ConfigurationDocsTests {
  @Test func everyKeyAndVariableIsDocumented() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Docs/Configuration.md").standardized.path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for (key, variable) in Settings.keys {
      #expect(text.contains("`\(key)`"), "\(key) is not in Docs/Configuration.md")
      #expect(text.contains(variable), "\(variable) is not in Docs/Configuration.md")
    }
  }
}
