import Composition
import Foundation
import Gateway
import Testing

/// The HTTP server's protections come from the config file, as documented.
@Suite struct ServerLimitsConfigTests {
  @Test func headerAndBodyDeadlinesComeFromTheConfig() throws {
    let daemon = try DaemonHarness(extra: #", "server.header-timeout": 3, "server.min-body-rate": 500, "server.per-address": 7, "server.threads": 3"#)
    #expect(daemon.server.options.threads == 3)
    #expect(daemon.server.options.headerSeconds == 3)
    #expect(daemon.server.options.minimumBodyRate == 500)
    #expect(daemon.server.options.perAddressLimit == 7)
  }

  @Test func theDefaultsProtectAnUnconfiguredServer() throws {
    let daemon = try DaemonHarness()
    #expect(daemon.server.options.headerSeconds == 10)
    #expect(daemon.server.options.minimumBodyRate == 1024)
    #expect(daemon.server.options.threads == 0, "one per core")
  }

  @Test(arguments: [#""server.header-timeout": 0"#, #""server.min-body-rate": "fast""#, #""server.threads": 1000"#])
  func anImpossibleDeadlineIsRefusedNamingTheKey(entry: String) throws {
    #expect {
      _ = try DaemonHarness(extra: ", " + entry)
    } throws: { error in
      String(describing: error).contains(entry.split(separator: "\"")[0])
    }
  }
}
