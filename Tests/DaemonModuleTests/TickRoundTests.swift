import Composition
@testable import Daemon
import Foundation
import Testing
import TestSupport

/// What the daemon does every round of its ticker, kept light at 10,000
/// people: each person's engine ticked in a slice of the round, the status
/// listing only the people whose sinks did something.
@Suite struct TickRoundTests {
  /// A person is always ticked in the same slice, and 10,000 people spread
  /// over the slices (none holds more than 30 % over its share).
  @Test func peopleAreTickedInSlicesSpreadOverTheRound() throws {
    var counts = [Int](repeating: 0, count: TickRound.slices)
    for index in 0..<10_000 {
      let slice = TickRound.slice(of: "p\(index)")
      try #require((0..<TickRound.slices).contains(slice) && slice == TickRound.slice(of: "p\(index)"))
      counts[slice] += 1
    }
    #expect(counts.allSatisfy { (700...1300).contains($0) }, "\(counts)")
    // The round walks the slices in order, the last one ending it.
    let round = TickRound()
    let walked = (0..<(2 * TickRound.slices)).map { _ in round.advance() }
    #expect(walked.map(\.slice) == Array(0..<TickRound.slices) + Array(0..<TickRound.slices))
    #expect(walked.filter(\.endsRound).map(\.slice) == [TickRound.slices - 1, TickRound.slices - 1])
  }

  /// A person closed is let go: the relay that carries a desktop sink's
  /// answers to them (and which they hold) does not keep them alive.
  @Test func aClosedPersonIsLetGo() throws {
    let scratch = TemporaryDirectory()
    let command = scratch.write("notify-send", "#!/bin/sh\nexit 0\n")
    chmod(command, 0o755)
    let daemon = try DaemonHarness(notify: ["desktop:" + command])
    #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 3000)).status == 200)
    weak let person = daemon.host.people.byName["alice"]
    try #require(person != nil, "alice is open")
    let closed = daemon.host.people.close(drainSeconds: 1, log: DaemonLog { _ in }) { $0 == "alice" }
    #expect(closed.closed == ["alice"])
    #expect(person == nil, "nothing holds alice after she closed")
  }

  /// The status names a person whose reminder a sink tried to deliver, and
  /// leaves out one who was reminded of nothing (`doctor` shows the same).
  @Test func theStatusLeavesOutPeopleWithNothingDelivered() throws {
    let daemon = try DaemonHarness(notify: ["ntfy:http://127.0.0.1:9/topic"])
    _ = try #require(daemon.addTask("Buy milk"))
    #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 3000)).status == 200)
    daemon.clock.advance(by: 120)
    #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 20)).status == 200)
    try #require(daemon.links().count == 2, "alice was reminded")
    #expect(daemon.send("POST", "/owntracks", body: daemon.location(north: 3000), as: "bob", headers: ["X-Limit-D": "phone"]).status == 200)
    let people = daemon.host.people.byName
    try #require(people["alice"] != nil && people["bob"] != nil, "both are open")
    for queue in people["alice"]!.queues { _ = queue.drain(timeout: 10) }
    let status = DaemonHost.status(of: Array(people.values), listening: "http://127.0.0.1:1", running: true, now: Date())
    let alice = try #require(status.deliveries["alice"], "alice's reminder went to her sink")
    #expect(alice.delivered + alice.retrying + alice.failed > 0)
    #expect(status.deliveries["bob"] == nil, "bob was reminded of nothing")
  }
}
