import Foundation
import Testing
import TestSupport

/// whilehered on `nats:`: the daemon's journal and each person's log on
/// one JetStream stream, apart, and all there after a restart.
@Suite struct NATSDaemonTests {
  @Test func eachPersonHasTheirOwnLogAndItOutlivesARestart() throws {
    let server = try NATSServer()
    let store = "nats:\(server.url);stream=daemon"
    var id: String?
    do {
      let daemon = try DaemonHarness(store: store)
      id = daemon.addTask("Buy milk")
      #expect(daemon.addTask("Post letters", as: "bob") != nil)
      #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 3000)).status == 200, "a report is journalled on NATS")
    }
    let again = try DaemonHarness(store: store)
    let tasks = again.json(again.send("GET", "/api/v1/tasks")) as? [[String: Any]]
    #expect(tasks?.map { $0["title"] as? String } == ["Buy milk"], "alice sees only her own, after the restart")
    #expect(tasks?.first?["id"] as? String == id)
    let status = again.json(again.send("GET", "/api/v1/status")) as? [String: Any]
    #expect(status?["lastFix"] != nil, "the journalled fix came back from NATS")
  }
}
