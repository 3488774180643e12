import Foundation
import Testing

/// Guessing is slowed for the guesser: per address and name, per address
/// for names that do not exist. A phone that already logged in, and other
/// people behind the same address, keep working.
@Suite struct LoginThrottleTests {
  @Test func aLoggedInPhoneKeepsReportingWhileSomeoneGuessesItsPassword() throws {
    let daemon = try DaemonHarness()
    #expect(daemon.send("GET", "/api/v1/tasks").status == 200, "alice's phone logs in")
    for client in ["127.0.0.1", "10.0.0.9"] {
      for _ in 0..<6 { _ = daemon.send("GET", "/api/v1/tasks", password: "guess", client: client) }
    }
    #expect(daemon.send("GET", "/api/v1/tasks", password: "guess", client: "10.0.0.9").status == 429, "the guesser is slowed")
    #expect(daemon.send("GET", "/api/v1/tasks").status == 200, "the credential that verified is never refused")
    #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 3000)).status == 200)
  }

  @Test func otherPeopleBehindTheSameAddressAreNotSlowed() throws {
    let daemon = try DaemonHarness()
    for _ in 0..<6 { _ = daemon.send("GET", "/api/v1/tasks", password: "guess") }
    #expect(daemon.send("GET", "/api/v1/tasks", as: "bob").status == 200, "bob logs in for the first time from the same address")
  }

  @Test func guessingNamesSlowsThatAddressForUnknownNamesOnly() throws {
    let daemon = try DaemonHarness()
    for index in 0..<6 { _ = daemon.send("GET", "/api/v1/tasks", as: "nobody\(index)", password: "x") }
    #expect(daemon.send("GET", "/api/v1/tasks", as: "someone", password: "x").status == 429)
    #expect(daemon.send("GET", "/api/v1/tasks", as: "someone", password: "x", client: "10.0.0.2").status == 401, "another address is not slowed")
    #expect(daemon.send("GET", "/api/v1/tasks").status == 200, "a real person at that address is not slowed")
  }
}
