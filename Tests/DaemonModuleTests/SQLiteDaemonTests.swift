import Foundation
import Testing
import TestSupport

/// whilehered on `sqlite:PATH`: each person gets their own database beside
/// it, the signing key lives there too (links outlive a restart), and what
/// was acknowledged is there after a restart.
@Suite struct SQLiteDaemonTests {
  @Test func eachPersonHasTheirOwnDatabaseAndItOutlivesARestart() throws {
    let directory = TemporaryDirectory()
    let store = "sqlite:" + directory.file("data/whilehere.sqlite")
    var id: String?
    do {
      let daemon = try DaemonHarness(store: store, directory: directory)
      id = daemon.addTask("Buy milk")
      #expect(id != nil)
      #expect(daemon.addTask("Post letters", as: "bob") != nil)
    }
    for name in ["alice", "bob"] {
      #expect(FileManager.default.fileExists(atPath: directory.file("data/people/\(name).sqlite")), "\(name)")
    }
    #expect(FileManager.default.fileExists(atPath: directory.file("data/server.key")))
    let again = try DaemonHarness(store: store, directory: directory)
    let tasks = again.json(again.send("GET", "/api/v1/tasks")) as? [[String: Any]]
    #expect(tasks?.map { $0["title"] as? String } == ["Buy milk"], "alice sees only her own, after the restart")
    #expect(tasks?.first?["id"] as? String == id)
  }
}
