import Analytics
import AnalyticsSinks
import CurlHTTP
import Domain
import Engine
import Foundation
import Gateway
import Locking
import MicroHTTP
import Simulation
import Testing
import TestSupport

/// Usage events carry nothing personal: a simulated week through the
/// arrival engine, every engine event turned into usage counts, and not one
/// holds a coordinate, a place or task name, or an id.
@Suite struct AnalyticsPrivacyTests {
  static let vocabulary: Set<String> = Set(
    ["cli", "daemon", "simulator", "delivered", "suppressed", "failed", "done", "later", "link", "desktop", "api", "yes", "no"]
      + ["settled", "leftZone", "noFix", "stationary", "timeLimit", "noProgress", "budget", "permission", "criticalHeat", "shutdown", "other"]
      + Command.allCases.map(\.rawValue))
  static let fields = Set(["event", "program", "version", "command", "seconds", "succeeded", "regions", "leftOut", "outcome", "reason", "answer", "channel", "sent", "received", "applied", "signal"])

  @Test func aSimulatedWeekLeavesNothingPersonalInTheEvents() throws {
    var random = SimRandom(seed: 11)
    let graph = StreetGraph.grid(center: try Coordinate(latitude: 60.1699, longitude: 24.9384))
    var placeRandom = random.fork(1)
    let places = PlaceSet.make(count: 400, localCount: WorldConfig().localPlaces, pois: [], graph: graph, random: &placeRandom)
    let trips = TripGenerator(graph: graph, places: places, people: WorldConfig().people)
    let sink = RecordingAnalytics()
    for day in 0..<7 {
      var tripRandom = random.fork(UInt64(100 + day))
      let trip = trips.trip(start: Date(timeIntervalSince1970: 1_780_000_000 + Double(day) * 86_400), random: &tripRandom)
      _ = SeedStrategy.shipped.run(trip: trip, world: WorldConfig(), places: places, random: tripRandom.fork(7)) { _, observation in
        if case .engine(let event) = observation, let usage = event.analytics { sink.record(usage) }
      }
    }
    let events = sink.events
    #expect(events.contains { $0.name == .planMade } && events.contains { $0.name == .reminderFired }, "the week produced too few events to prove anything")
    let names = Set(places.places.map(\.name))
    let ids = Set(places.places.map { String($0.id) })
    let coordinates = places.places.flatMap { [$0.center.latitude, $0.center.longitude] }
    let encoder = JSONEncoder()
    for event in events {
      let object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(event)) as? [String: Any])
      for (key, value) in object {
        #expect(Self.fields.contains(key), "unexpected field \(key)")
        switch value {
        case let text as String:
          #expect(key == "event" || key == "version" || Self.vocabulary.contains(text), "free text in \(key): \(text)")
          #expect(!names.contains(text) && !ids.contains(text))
        case let number as NSNumber:
          let double = number.doubleValue
          #expect(!coordinates.contains { abs($0 - double) < 1e-6 }, "a coordinate in \(key)")
          if key != "seconds" { #expect(double == double.rounded(), "\(key) is not a count: \(double)") }
        default:
          Issue.record("\(key) holds \(type(of: value))")
        }
      }
    }
  }

  @Test func versionsCannotCarryText() {
    #expect(Version("1.2.3").text == "1.2.3")
    #expect(Version("Alice's phone").text == "0")
    #expect(Version(String(repeating: "1", count: 40)).text == "0")
  }

  @Test func sinksPassTheSharedSuite() throws {
    let recording = RecordingAnalytics()
    let encoder = JSONEncoder()
    try AnalyticsSinkConformance.verify(make: { recording }, delivered: { _ in
      try recording.events.map { try JSONSerialization.jsonObject(with: encoder.encode($0)) as! [String: Any] }
    })
    let directory = TemporaryDirectory()
    let path = directory.file("usage.jsonl")
    try AnalyticsSinkConformance.verify(make: { JSONLinesAnalytics(path: path) }, delivered: { _ in
      try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    })
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    let collector = RecordingHTTPHandler()
    let server = MicroHTTPServer(options: HTTPServerOptions(port: 0))
    let port = try server.start(collector)
    defer { server.stop() }
    try AnalyticsSinkConformance.verify(make: { HTTPAnalytics(url: URL(string: "http://127.0.0.1:\(port)/usage")!, client: CurlHTTPClient(), batchSize: 10) }, delivered: { _ in
      try collector.requests.flatMap { try JSONSerialization.jsonObject(with: $0.body) as! [[String: Any]] }
    })
    #expect(collector.requests.count == 1, "one batch")
  }

  @Test func nothingPassesTheGateWithoutConsent() {
    let recording = RecordingAnalytics()
    let flag = Locked(false)
    let gate = ConsentGate(recording) { flag.withLock { $0 } }
    gate.record(.planMade(regions: 1, leftOut: 0))
    flag.withLock { $0 = true }
    gate.record(.planMade(regions: 2, leftOut: 0))
    #expect(recording.events == [.planMade(regions: 2, leftOut: 0)])
  }
}
