import ArgumentParsing
import DaemonSimulation
import Engine
import Domain
import Foundation
import Geofencing
import Notifications
import Simulation

/// `whilehere-sim replay TRACE.jsonl --places FILE [--task TITLE]`: a real
/// track through the shipped engine on the simulated phone, as a timeline.
enum ReplayCommand {
  static func run(_ arguments: ParsedArguments) throws {
    let trip = try TraceReplay.trip(jsonl: arguments.positionals[0])
    let radius = try arguments.value("radius").map { text -> Double in
      guard let value = Double(text), value >= 25, value <= 10_000 else {
        throw UsageError("--radius must be 25...10000 metres", commandPath: arguments.commandPath)
      }
      return value
    } ?? 150
    let places: PlaceSet
    switch (arguments.value("places"), arguments.value("tasks")) {
    case (let path?, nil): places = PlaceSet(places: try TraceReplay.places(path, defaultRadius: radius))
    case (nil, let path?): places = try TraceReplay.tasks(path, defaultRadius: radius)
    case (.some, .some): throw UsageError("give --places or --tasks, not both", commandPath: arguments.commandPath)
    case (nil, nil):
      throw UsageError("give --places FILE (GeoJSON points or CSV id,lat,lon,radius_m) or --tasks FILE (tasks with their places)", commandPath: arguments.commandPath)
    }
    var world = WorldConfig()
    if let path = arguments.value("world") { world = try WorldConfig.load(path) }
    let seedText = arguments.value("seed") ?? "1"
    guard let seed = UInt64(seedText) else { throw UsageError("--seed must be a whole number, not '\(seedText)'", commandPath: arguments.commandPath) }
    let candidate = try arguments.value("engine").map(BenchCommands.engineFile)
    let known = DetectionBenchmark.allStrategies + OwnTracksStrategy.all + DetectionBenchmark.optionalStrategies + (candidate.map { [$0] } ?? [])
    let name = arguments.value("strategy") ?? candidate?.name ?? SeedStrategy.shipped.name
    guard let chosen = known.first(where: { $0.name == name || (name == "engine" && $0.name == candidate?.name) }) else {
      throw UsageError("unknown strategy '\(name)'; known: \(known.map(\.name).joined(separator: ", "))", commandPath: arguments.commandPath)
    }
    if let candidate, chosen.name != candidate.name {
      throw UsageError("--engine runs the shipped engine with its file as \(candidate.name); give --strategy engine, or leave --engine out", commandPath: arguments.commandPath)
    }
    let json = arguments.has("json")
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    formatter.timeZone = TimeZone(identifier: "UTC")
    let reportPath = arguments.value("report")
    var report = ReplayReport()
    let run: StrategyRun
    if !json { print("replay: \(arguments.positionals[0]): \(trip.positions.count) s of track from \(formatter.string(from: trip.start)) UTC, \(places.places.count) places, strategy \(chosen.name), seed \(seed), world \(world.name) #\(world.hash)") }
    if var seeded = chosen as? SeedStrategy {
      seeded.singleTask = arguments.value("task")
      run = seeded.run(trip: trip, world: world, places: places, random: SimRandom(seed: seed)) { second, observation in
        let line = describe(observation, places: places)
        if reportPath != nil { report.observe(observation, at: second, line: line) }
        guard !json, let line else { return }
        print("\(formatter.string(from: trip.time(second)))  \(line)")
      }
    } else {
      run = chosen.run(trip: trip, world: world, places: places, random: SimRandom(seed: seed))
    }
    if let reportPath {
      let taskName: (Int) -> String = { place in arguments.value("task") ?? places.taskNames[places.taskOf[place]] ?? places.places[place].name }
      let page = try report.html(
        trip: trip, places: places, run: run,
        title: "\((arguments.positionals[0] as NSString).lastPathComponent) — \(chosen.name), seed \(seed), world #\(world.hash)", taskName: taskName)
      guard FileManager.default.createFile(atPath: reportPath, contents: Data(page.utf8)) else {
        throw UsageError("cannot write the report to \(reportPath)", commandPath: arguments.commandPath)
      }
      if !json { print("report: \(reportPath)") }
    }
    if json {
      // One line per fire: the task, the place, when (ISO-8601).
      let iso = ISO8601DateFormatter()
      for fire in run.fires {
        let place = places.places[fire.place]
        let task = arguments.value("task") ?? places.taskNames[places.taskOf[fire.place]] ?? place.name
        print(JSONValue.object(["task": .string(task), "place": .string(place.name), "t": .string(iso.string(from: trip.time(fire.second)))]).compactText)
      }
      return
    }
    print("")
    print("\(run.fires.count) reminders, \(Int(run.preciseSeconds)) s of precise tracking, \(run.replans) plans, at most \(run.peakRegions) regions")
  }

  static func describe(_ observation: PhoneObservation, places: PlaceSet) -> String? {
    switch observation {
    case .region(let event):
      return "OS: \(event.kind.rawValue) \(event.id)"
    case .engine(let event):
      switch event {
      case .planned(let plan, let added, let removed, let reason):
        return "plan (\(reason)): \(plan.destinations.count) destinations, \(plan.regions.count) regions (+\(added.count) −\(removed.count))"
      case .planKept: return nil
      case .installFailed(let why): return "install failed: \(why)"
      case .stateRequested(let id): return "asked the OS for the state of \(id) (registered while inside)"
      case .ignoredRegion(let id, let reason): return "ignored \(id): \(reason)"
      case .sessionStarted(let zone, let granted, let limits): return "precise session started for \(zone) (up to \(Int(granted)) s, \(limits))"
      case .sessionRefused(let why): return "no session: \(why)"
      case .sessionStopped(let reason, let used): return "precise session stopped: \(reason.rawValue) after \(Int(used)) s"
      case .reminder(let outcome):
        switch outcome {
        case .delivered(let n): return "REMINDER \(n.title) — \(n.body)   " + n.category.buttons.map { "[\($0.title)]" }.joined(separator: " ")
        case .suppressed(let n, let why): return "reminder \(n.title) not shown: \(why)"
        case .failed(let n, let error): return "reminder \(n.title) failed: \(error)"
        }
      case .degraded(let text): return "degraded: \(text)"
      case .wakeFixRequested: return "left the coverage edge: one fix requested"
      case .confirmationRequested(let id): return "\(id) reported inside: one fix requested to confirm"
      case .following(let on): return on ? "following with reduced-accuracy updates (dense places)" : "stopped following"
      }
    }
  }
}
