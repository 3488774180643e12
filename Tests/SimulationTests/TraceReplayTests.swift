import Domain
import Foundation
import Simulation
import Testing
import TestSupport

@Suite struct TraceReplayTests {
  let directory = TemporaryDirectory()

  func write(_ name: String, _ text: String) -> String { directory.write(name, text) }

  /// A straight 2 km walk north, a fix every 10 s, with a 10-minute stop at 60.009.
  func walk() -> String {
    var lines: [String] = []
    let start = Date(timeIntervalSince1970: 1_600_000_000)
    let formatter = ISO8601DateFormatter()
    var t = 0.0
    var lat = 60.0
    while lat < 60.018 {
      let pause = abs(lat - 60.009) < 0.00001 ? 600.0 : 0
      lines.append(#"{"t": "\#(formatter.string(from: start.addingTimeInterval(t)))", "lat": \#(lat), "lon": 24.0, "acc": 8}"#)
      t += 10 + pause
      lat += 0.0001
    }
    return write("walk.jsonl", lines.joined(separator: "\n"))
  }

  @Test func aTraceBecomesOnePositionASecondWithoutItsJumps() throws {
    let path = write("t.jsonl", """
      {"t": "2020-01-01T10:00:00Z", "lat": 60.0, "lon": 24.0, "acc": 10}
      {"t": "2020-01-01T10:00:10Z", "lat": 60.0009, "lon": 24.0, "acc": 10}
      {"t": "2020-01-01T10:00:11Z", "lat": 61.0, "lon": 24.0, "acc": 10}
      {"t": "2020-01-01T10:00:12Z", "lat": 60.0010, "lon": 24.0, "acc": 900}
      {"t": "2020-01-01T10:00:20Z", "lat": 60.0018, "lon": 24.0, "acc": null}

      """)
    let trip = try TraceReplay.trip(jsonl: path)
    #expect(trip.positions.count == 21)
    #expect(trip.positions.allSatisfy { $0.latitude < 60.002 }, "the 111 km jump and the 900 m fix are left out")
    #expect(abs(trip.positions[5].latitude - 60.00045) < 1e-9)
  }

  @Test func aBrokenLineIsNamed() {
    let path = write("bad.jsonl", "{\"t\": \"2020-01-01T10:00:00Z\", \"lat\": 60, \"lon\": 24}\nnot json\n")
    let error = #expect(throws: ScenarioError.self) { try TraceReplay.trip(jsonl: path) }
    #expect(error?.source.hasSuffix("bad.jsonl:2") == true)
  }

  @Test func aReplayThroughTheEngineFiresAtAPlaceOnTheWay() throws {
    let trace = walk()
    let places = write("places.csv", "id,lat,lon,radius_m\n1,60.0090,24.0,80\n2,60.0300,24.0,80\n")
    let trip = try TraceReplay.trip(jsonl: trace)
    let set = PlaceSet(places: try TraceReplay.places(places))
    var strategy = SeedStrategy.shipped
    strategy.singleTask = "Buy milk"
    var observed: [PhoneObservation] = []
    let run = strategy.run(trip: trip, world: WorldConfig(), places: set, random: SimRandom(seed: 1)) { _, observation in observed.append(observation) }
    #expect(run.fires.map(\.place) == [0], "fires once, at the place the walk stops at")
    #expect(observed.contains { if case .engine(.planned) = $0 { return true } else { return false } })
    #expect(run.peakRegions <= 20)
  }

  /// A tasks file ties places into tasks as the product has them: one task
  /// with two places fires once per visit, named by the task.
  @Test func aTasksFileGroupsPlacesIntoTasks() throws {
    let path = write("tasks.json", #"[{"title": "Buy milk", "places": [{"name": "A", "lat": 60.009, "lon": 24.0, "radius": 80}, {"name": "B", "lat": 60.03, "lon": 24.0}]}, {"title": "Post letter", "places": [{"lat": 60.05, "lon": 24.1, "radius": 60}]}]"#)
    let set = try TraceReplay.tasks(path)
    #expect(set.places.map(\.name) == ["A", "B", "Post letter"])
    #expect(set.taskOf == [0, 0, 1])
    let tasks = SeedStrategy.shipped.tasks(set, at: Date(timeIntervalSince1970: 0))
    #expect(tasks.map(\.title) == ["Buy milk", "Post letter"])
    #expect(tasks[0].locations.count == 2)
    #expect(tasks[0].locations[1].radius == 150, "the default radius")
    let bad = write("bad.json", #"[{"title": "X", "places": [{"lat": 60, "lon": 24, "radius": 5}]}]"#)
    #expect(throws: ScenarioError.self) { try TraceReplay.tasks(bad) }
    let empty = write("empty.json", #"[{"title": "X", "places": []}]"#)
    #expect(throws: ScenarioError.self) { try TraceReplay.tasks(empty) }
  }

  /// The report page carries what happened and fetches nothing.
  @Test func theReportPageIsSelfContainedAndCarriesTheRun() throws {
    let trip = try TraceReplay.trip(jsonl: walk())
    let set = try TraceReplay.tasks(write("tasks.json", #"[{"title": "Buy </script> milk", "places": [{"name": "Kiosk", "lat": 60.009, "lon": 24.0, "radius": 80}]}]"#))
    var report = ReplayReport()
    let run = SeedStrategy.shipped.run(trip: trip, world: WorldConfig(), places: set, random: SimRandom(seed: 1)) { second, observation in
      report.observe(observation, at: second, line: "event")
    }
    let page = try report.html(trip: trip, places: set, run: run, title: "walk", taskName: { set.taskNames[set.taskOf[$0]] ?? "" })
    #expect(run.fires.count == 1)
    #expect(page.contains(#""fires":[{"place":"Kiosk","t":"#))
    #expect(page.contains("Buy <\\/script> milk"), "a title cannot end the script element")
    #expect(!page.contains("src=") && !page.contains("href="), "nothing fetched")
    #expect(page.contains(#""plans":[{"#))
  }
}
