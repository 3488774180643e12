import Foundation
import Testing

/// An answer that meets a task in a state that does not allow it is a
/// conflict (409, with why), never an outage (5xx); an answer whose wanted
/// state already holds succeeds.
@Suite struct AnswerConflictTests {
  func fired(_ daemon: DaemonHarness) throws -> (id: String, done: String, later: String) {
    let id = try #require(daemon.addTask("Buy milk"))
    _ = daemon.send("POST", "/owntracks", body: daemon.location(north: 20))
    let done = try #require(daemon.links().first { $0.label == "Mark Done" })
    let later = try #require(daemon.links().first { $0.label == "Remind Later" })
    return (id, DaemonHarness.path(of: done.url), DaemonHarness.path(of: later.url))
  }

  @Test func remindLaterAfterMarkDoneFromTheSameReminderIsAConflict() throws {
    let daemon = try DaemonHarness()
    let (id, done, later) = try fired(daemon)
    #expect(daemon.send("POST", done, as: nil).status == 200)
    let conflict = daemon.send("POST", later, as: nil)
    #expect(conflict.status == 409)
    let message = (daemon.json(conflict) as? [String: Any])?["error"] as? String ?? ""
    #expect(message.contains("done"), "\(message)")
    let task = daemon.json(daemon.send("GET", "/api/v1/tasks/\(id)")) as? [String: Any]
    #expect(task?["state"] as? String == "completed", "the refused answer changed nothing")
  }

  @Test func markDoneAfterTheAPIMarkedItDoneSucceeds() throws {
    let daemon = try DaemonHarness()
    let (id, done, _) = try fired(daemon)
    #expect(daemon.send("POST", "/api/v1/tasks/\(id)/done").status == 200)
    let pressed = daemon.send("POST", done, as: nil)
    #expect(pressed.status == 200, "the wanted state already holds")
    #expect((daemon.json(pressed) as? [String: Any])?["state"] as? String == "completed")
  }

  @Test func theAPIAnswersAConflictWith409() throws {
    let daemon = try DaemonHarness()
    let (id, _, _) = try fired(daemon)
    #expect(daemon.send("POST", "/api/v1/tasks/\(id)/done").status == 200)
    #expect(daemon.send("POST", "/api/v1/tasks/\(id)/later").status == 409)
    #expect(daemon.send("POST", "/api/v1/tasks/\(id)/done").status == 409, "the API says what it did: done once")
  }
}
