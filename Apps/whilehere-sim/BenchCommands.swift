import ArgumentParsing
import Composition
import DaemonSimulation
import Foundation
import Simulation

enum BenchCommands {
  static func match(_ arguments: ParsedArguments) throws {
    guard let places = arguments.value("places"), let fixes = arguments.value("fixes") else {
      throw UsageError("give --places FILE and --fixes FILE (make them with ../shared/bench/gen.py)", commandPath: arguments.commandPath)
    }
    let cell = try arguments.value("cell").map { text -> Double in
      guard let value = Double(text), value > 0, value <= 10 else {
        throw UsageError("--cell must be a size in degrees in (0, 10]", commandPath: arguments.commandPath)
      }
      return value
    }
    print(try MatchBenchmark.run(placesPath: places, fixesPath: fixes, cellDegrees: cell ?? MatchBenchmark.defaultCell).json)
  }

  static func detection(_ arguments: ParsedArguments) throws {
    var options = DetectionBenchmark.Options()
    func number(_ name: String) throws -> Int? {
      guard let text = arguments.value(name) else { return nil }
      guard let value = Int(text), value >= 0 else {
        throw UsageError("--\(name) must be a whole number, not '\(text)'", commandPath: arguments.commandPath)
      }
      return value
    }
    options.places = try number("places") ?? options.places
    options.trips = try number("trips") ?? options.trips
    options.seed = UInt64(try number("seed") ?? 1)
    if let world = arguments.value("world") { options.world = try WorldConfig.load(world) }
    options.roads = arguments.value("roads") ?? existing("../shared/data/helsinki-roads.geojson")
    options.pois = arguments.value("pois") ?? existing("../shared/data/helsinki-pois.geojson")
    // The simulated OS's rows, then the deployed path: OwnTracks phones through the daemon.
    options.strategies = DetectionBenchmark.allStrategies + OwnTracksStrategy.all
    let candidate = try arguments.value("engine").map(engineFile)
    if let candidate { options.strategies.insert(candidate, at: options.strategies.firstIndex { $0.name == SeedStrategy.shipped.name }.map { $0 + 1 } ?? 0) }
    let known = options.strategies + DetectionBenchmark.optionalStrategies
    if let names = arguments.value("strategies") {
      let wanted = names.split(separator: ",").map { String($0) }
      options.strategies = try wanted.map { name in
        if name == "engine", let candidate { return candidate }
        guard let strategy = known.first(where: { $0.name == name }) else {
          let names = known.map(\.name) + (candidate == nil ? [] : ["engine (the --engine row)"])
          throw UsageError("unknown strategy '\(name)'; known: \(names.joined(separator: ", "))", commandPath: arguments.commandPath)
        }
        return strategy
      }
      if let candidate, !options.strategies.contains(where: { $0.name == candidate.name }) {
        throw UsageError("--engine adds the row \(candidate.name): name it in --strategies (as engine) or leave --engine out", commandPath: arguments.commandPath)
      }
    }
    options.explain = arguments.has("explain")
    let report = try DetectionBenchmark.run(options)
    print(arguments.has("json") ? DetectionReportFormatter.json(report) : DetectionReportFormatter.text(report))
    for (strategy, misses) in report.explanations { print(misses.lines(strategy: strategy).joined(separator: "\n")) }
    if options.explain {
      for score in report.scores where !score.firesBySource.isEmpty { print(score.sourceLines().joined(separator: "\n")) }
    }
    if options.explain, report.explanations.isEmpty, report.scores.allSatisfy({ $0.firesBySource.isEmpty }) {
      print("--explain: none of these rows runs the arrival engine (seed, whilehere, whilehere-unconfirmed, the owntracks rows); nothing to explain")
    }
    if let plot = arguments.value("plot") {
      guard FileManager.default.createFile(atPath: plot, contents: Data(DetectionPlot.svg(report).utf8)) else {
        throw UsageError("cannot write the plot to \(plot)", commandPath: arguments.commandPath)
      }
    }
  }

  /// `--engine FILE`: the shipped engine with the file's `arrival` keys.
  static func engineFile(_ path: String) throws -> SeedStrategy {
    guard let data = FileManager.default.contents(atPath: path) else { throw ScenarioError(source: path, message: "cannot be read", kind: "engine file") }
    return try SeedStrategy.candidate(data, source: path)
  }

  static func existing(_ path: String) -> String? { FileManager.default.fileExists(atPath: path) ? path : nil }

  static func matching(_ arguments: ParsedArguments) throws {
    let directory = arguments.value("takeout") ?? "../shared/data/takeout"
    let spec = arguments.value("places") ?? "osm-geojson:../shared/data/helsinki-pois.geojson"
    let provider = try ProviderRegistry.standard.placeProvider(spec, environment: ProcessInfo.processInfo.environment)
    let report = try MatchingBenchmark.run(takeout: directory, provider: provider)
    print("matching: \(report.rows) rows in \(report.files.joined(separator: ", ")) against \(provider.name) (\(provider.count ?? 0) places)")
    print(String(format: "automatic matches: %d, precision %.3f (aim ≥ 0.98), recall %.3f of %d rows with a true place", report.accepted, report.precision, report.recall, report.rowsWithTruth))
    print(String(format: "right place among the top three candidates: %.3f of all rows with a true place", report.topThreeRate))
    print(
      String(
        format: "rows left for review: %d with a true place; right place among their top three: %.3f (aim ≥ 0.95)", report.leftWithTruth,
        report.leftTopThreeRate))
    print(String(format: "%.1f ms per row", report.seconds * 1000 / Double(max(report.rows, 1))))
    if arguments.has("verbose") {
      for line in report.wrong { print("  wrong: \(line)") }
      for line in report.missed { print("  left for review: \(line)") }
    }
  }

  static func suggestions(_ arguments: ParsedArguments) throws {
    let spec = arguments.value("places") ?? "osm-geojson"
    let provider = try ProviderRegistry.standard.placeProvider(spec, environment: ProcessInfo.processInfo.environment)
    let lines = try SuggestionReport.run(provider: provider)
    print("suggestions: \(SuggestionReport.phrases.count) phrases × \(SuggestionReport.points.count) points against \(provider.name) (\(provider.count ?? 0) places), first suggestion within 2 km")
    for line in lines {
      let first = line.first.map { "\($0.place.name) (\($0.place.category), \(Int($0.distance)) m)" } ?? "nothing"
      print("  \(line.sensible ? "ok " : "NO ") \(line.phrase) @ \(String(format: "%.4f,%.4f", line.point.latitude, line.point.longitude)): \(first)")
    }
    print("sensible: \(lines.filter(\.sensible).count) of \(lines.count)")
  }

  static func places(_ arguments: ParsedArguments) throws {
    let places = Int(arguments.value("places") ?? "100000") ?? 100_000
    let rows = Int(arguments.value("rows") ?? "10000") ?? 10_000
    guard places > 0, rows > 0 else { throw UsageError("--places and --rows must be positive", commandPath: arguments.commandPath) }
    let report = try PlacesBenchmark.run(places: places, rows: rows)
    print("places: \(report.places) synthetic provider places (chain + street names over 20 km), \(report.rows) import rows drawn from them")
    print(String(format: "provider load and index: %.2f s", report.loadSeconds))
    print(String(format: "suggestion (\"buy milk and coffee\", 2 km): median %.2f ms, p95 %.2f ms over 200 points", report.suggestMedianMs, report.suggestP95Ms))
    print(String(format: "import matching: %.0f rows/s (%d of %d accepted automatically)", report.importRowsPerSecond, report.importAccepted, report.rows))
  }
}
